// The HTTP API as the page uses it. Every URL is relative to the document's <base>, which the server sets to
// its base path, so the page works the same at the root and under a reverse proxy's sub-path.

const tokenKey = "share-token";

/** Whose history every request reads and changes: "" for the signed-in user's own, else an admin's choice. */
let historyUser = "";

export function actFor(user) {
  historyUser = user;
}

/** A failed request's problem detail from its body, else its status line. */
export function problemDetail(status, statusText, body) {
  try {
    const problem = JSON.parse(body);
    return problem.detail || problem.title || `${status} ${statusText}`;
  } catch {
    return `${status} ${statusText}`;
  }
}

/** A failed request: the server's problem detail (or what went wrong), its status (0: no answer), and whether the
 * browser was offline when it failed. */
export class RequestError extends Error {
  constructor(message, status, { offline = false } = {}) {
    super(message);
    this.status = status;
    this.offline = offline;
  }
}

export function token() {
  return sessionStorage.getItem(tokenKey) ?? localStorage.getItem(tokenKey) ?? "";
}

/** Keeps the token for this tab, or on this device too when `remember`. */
export function keepToken(value, remember) {
  sessionStorage.setItem(tokenKey, value);
  if (remember) localStorage.setItem(tokenKey, value);
  else localStorage.removeItem(tokenKey);
}

export function forgetToken() {
  sessionStorage.removeItem(tokenKey);
  localStorage.removeItem(tokenKey);
}

/** Sends a request (with `headers` besides the usual) and returns the response, or throws a RequestError naming
 *  the problem. */
export async function request(url, { method = "GET", body, signal, headers: extra = {} } = {}) {
  const headers = signedIn({ Accept: "application/json", ...extra });
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(historyURL(url), { method, headers, signal, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    const offline = !navigator.onLine;
    throw new RequestError(offline ? "You are offline." : "The server does not answer: it may be stopped or restarting.", 0, { offline });
  }
  if (response.ok) return response;
  // The server's own trouble is not the person's to solve: they are told what it means for them.
  if (response.status >= 500) throw new RequestError("The server could not answer just now, so what you see may be out of date.", response.status);
  throw new RequestError(problemDetail(response.status, response.statusText, await response.text()), response.status);
}

/** `headers` with the token, when there is one. */
export function signedIn(headers) {
  const bearer = token();
  return bearer ? { ...headers, Authorization: `Bearer ${bearer}` } : headers;
}

/** `url` in the history being shown: with `user` when an admin looks at another user's. */
export function historyURL(url) {
  if (!historyUser) return url;
  const absolute = new URL(url, document.baseURI);
  absolute.searchParams.set("user", historyUser);
  return absolute.href;
}

/** The URL of the next page, from a response's `Link: <…>; rel="next"` header. */
export function nextPage(response) {
  const link = response.headers.get("Link") ?? "";
  const match = /<([^>]*)>;\s*rel="next"/.exec(link);
  return match ? match[1] : null;
}

export function shareURL(id, suffix = "") {
  return `share/${encodeURIComponent(id)}${suffix}`;
}
