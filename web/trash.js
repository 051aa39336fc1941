// The trash's note: how long it keeps shares (once `/me` has said), and its one destructive button, which says what
// it deletes: all of the trash, or the shares the filters show.

import { count } from "./format.js";

const byId = (id) => document.getElementById(id);

/** The note for the view `state` (shown in the trash only), `me` what `/me` said, `matching` how many it shows;
 *  `filtered`: a filter narrows the trash. */
export function showTrashNote(state, me, matching, filtered) {
  byId("trash-note").hidden = !state.trashed;
  const days = me?.trashDays;
  const words = days > 0 ? `Shares in the trash are deleted for good ${count(days, "day")} after they were deleted.` : "Shares stay in the trash until you empty it.";
  byId("trash-days").textContent = days === undefined ? "" : words;
  const button = byId("empty-trash");
  button.hidden = !state.trashed || matching === 0;
  button.textContent = filtered ? `Delete ${count(matching, "share")} for good` : `Empty trash (${count(matching, "share")})`;
}
