// The name the owner last gave as a share's sender, kept on this device: the page's next uploads carry it.

const key = "share-sender";

export const rememberedSender = () => localStorage.getItem(key) ?? "";

/** Remembers `name` for the next uploads; an empty one forgets it. */
export function rememberSender(name) {
  if (name) localStorage.setItem(key, name);
  else localStorage.removeItem(key);
}
