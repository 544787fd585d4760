import { limits } from './limits.js';

/** What a callsign is made of: a letter, then letters, digits, "-" or "_" (also safe in file names). */
const CALLSIGN = `[A-Za-z][A-Za-z0-9_-]{0,${limits.callsign.max - 1}}`;

export const callsignPattern = new RegExp(`^${CALLSIGN}$`);
export const callsignRule = `a callsign is 1-${limits.callsign.max} letters, digits, "-" or "_", starting with a letter (e.g. ATLAS)`;

/** `@ATLAS` in a message body notifies ATLAS. A new RegExp per use: a global regex keeps state. */
export const mentionPattern = (): RegExp => new RegExp(`@(${CALLSIGN})`, 'g');

export { nonCallsignChars } from './callsign-chars.js';
