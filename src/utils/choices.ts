/** A search field's choices are labelled `name · detail` (a doctor's organisation, a document's base). */
const SEPARATOR = ' · ';

export const choiceLabel = (name: string, detail?: string | null) => (detail ? `${name}${SEPARATOR}${detail}` : name);

/** What the server is asked for when a user types (or pastes) a whole label: the name it begins with. */
export const choiceKeyword = (typed?: string) => typed?.split(SEPARATOR)[0].trim() || undefined;
