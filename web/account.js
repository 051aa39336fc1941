// Who is signed in: the header's name, Sign out and Account (the personal screen, personal.js, saying when webhooks
// stopped), an admin's choice of whose history to show, and the sign-in dialog a 401 opens.

import { forgetToken, keepToken, request, token } from "./api.js";

const byId = (id) => document.getElementById(id);

/** Shows `me` (what `GET /me` said) in the header; an admin of per-user histories gets a picker, showing `viewed`
 *  and calling `pick(user)` when another is chosen. */
export function showAccount(me, { viewed, pick }) {
  const who = byId("who");
  who.textContent = me.user ?? "";
  who.hidden = !me.user || me.user === "local";
  if (me.admin) who.textContent += " (admin)";
  if (me.admin && me.histories === "per-user") showUserPicker(me.user, viewed, pick);
  const out = byId("sign-out");
  out.hidden = !(me.signedInWith === "token" || me.signOutUrl);
  out.onclick = () => signOut(me);
  showStoppedHooks(me);
}

/** Signs out the way the server said to: its sign-out address under a proxy, else by forgetting the token. */
export function signOut(me) {
  if (me.signOutUrl) {
    location.href = me.signOutUrl;
    return;
  }
  forgetToken();
  location.reload();
}

/** The header's Account button, with how many of the history's webhooks stopped sending (`me.disabledHooks`). */
export function showStoppedHooks(me) {
  const button = byId("account-button");
  const stopped = me.disabledHooks ?? 0;
  button.hidden = !me.user;
  byId("account-badge").textContent = stopped || "";
  byId("account-badge").hidden = !stopped;
  button.setAttribute("aria-label", stopped ? `Account: ${stopped} webhook${stopped === 1 ? "" : "s"} stopped` : "Account");
}

/** An admin's choice of whose history the page shows: their own, or any user's with shares. */
async function showUserPicker(myself, viewed, pick) {
  let users;
  try {
    users = await (await request("users")).json();
  } catch {
    return; // Without the list the admin still has their own history.
  }
  const picker = byId("user-picker");
  const others = users.map((entry) => entry.user).filter((user) => user !== myself);
  if (viewed && !others.includes(viewed)) others.push(viewed);
  const option = (value, label) => Object.assign(document.createElement("option"), { value, textContent: label });
  picker.replaceChildren(option("", `${myself} (you)`), ...others.map((user) => option(user, user)));
  picker.value = viewed;
  picker.onchange = () => pick(picker.value);
  byId("user-picker-label").hidden = false;
}

/** Asks for a token, then runs `retry`; a refused one stays in the field, said to be refused. */
export function signIn(retry) {
  const dialog = byId("signin");
  if (dialog.open) return;
  const error = byId("signin-error");
  error.textContent = "The server did not accept that token: check it and try again.";
  const refused = token();
  error.hidden = !refused;
  forgetToken();
  const form = byId("signin-form");
  form.onsubmit = (event) => {
    event.preventDefault();
    keepToken(byId("token").value.trim(), byId("remember").checked);
    dialog.close();
    retry();
  };
  // Escape closes the dialog; the page then says why it is empty, with the way back.
  const signedOut = byId("signed-out");
  signedOut.hidden = true;
  dialog.oncancel = () => {
    signedOut.hidden = false;
    byId("sign-in-again").onclick = () => signIn(retry);
    // Once closed: closing gives focus back to what had it before the dialog opened.
    dialog.addEventListener("close", () => byId("sign-in-again").focus(), { once: true });
  };
  // A refused token stays in the field, to mend rather than type again.
  byId("token").value = refused;
  dialog.showModal();
  byId("token").focus();
  byId("token").select();
}
