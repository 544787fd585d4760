import { crc32 } from 'node:zlib';

/**
 * Each log record is its JSON, a tab and the CRC-32 of the JSON (8 hex digits): a byte changed on
 * disk (a claim pattern, a callsign) must not replay as a record nobody wrote. JSON text never holds
 * a raw tab, so the separator is unambiguous. Logs written before records carried one still load.
 */
const SEPARATOR = '\t';

export function sealRecord(json: string): string {
  return `${json}${SEPARATOR}${checksum(json)}`;
}

/** The record's JSON, and whether it carried a checksum; a checksum that does not match is `damaged`. */
export function openRecord(line: string): { json: string; sealed: boolean } | { damaged: string } {
  const at = line.lastIndexOf(SEPARATOR);
  if (at < 0) return { json: line, sealed: false };
  const json = line.slice(0, at);
  const found = line.slice(at + 1);
  const expected = checksum(json);
  return found === expected ? { json, sealed: true } : { damaged: `its checksum is ${found}, its content's ${expected}` };
}

function checksum(json: string): string {
  return crc32(json).toString(16).padStart(8, '0');
}
