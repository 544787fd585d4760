import { z } from 'zod';

/**
 * Planes echoed per message at most (the most recently heard): the header stays small however
 * large the fleet. A plane not among them is echoed by the next message that names it.
 */
export const MAX_ECHOED_PLANES = 16;
/** Plane ids are a few dozen characters; a longer one is not a plane's. */
const MAX_PLANE_ID_CHARS = 64;
/** The header's length at most: MAX_ECHOED_PLANES entries of the longest id and two 15-digit clocks fit. */
export const MAX_ECHO_CHARS = MAX_ECHOED_PLANES * (MAX_PLANE_ID_CHARS + 40);
/** A peer heard longer ago than this is not echoed (its round trip would be too long to tell anything). */
const ECHO_WINDOW_MS = 5 * 60_000;

/** What one plane tells back of another's last message: that plane's clock at send, and its own at receipt. */
export interface Echo {
  sent: number;
  peerReceived: number;
}

const clockReading = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const echoSchema = z.array(z.tuple([z.string().min(1).max(MAX_PLANE_ID_CHARS), clockReading, clockReading])).max(MAX_ECHOED_PLANES);

/**
 * The clock echo each message of a plane carries (a header of the stream message, beside its own
 * clock), NTP's way of turning one-way messages into round trips: for each peer it heard from
 * recently, the clock reading that peer's last message carried and this plane's clock when it
 * received it. The peer that reads its own reading echoed back has all four timestamps of a
 * round trip (see server/core/clock-offset.ts).
 */
export class ClockEcho {
  private readonly heardFrom = new Map<string, Echo>();

  constructor(private readonly self: string) {}

  /** A message of `plane`, stamped `sent` by its clock, arrived at `receivedAt` by this plane's. */
  heard(plane: string, sent: number, receivedAt: number): void {
    if (plane === this.self || plane === '' || plane.length > MAX_PLANE_ID_CHARS || !clockReading.safeParse(sent).success) return;
    if ((this.heardFrom.get(plane)?.sent ?? -Infinity) > sent) return; // an old message delivered again (a replaced follower) is not its last
    this.heardFrom.delete(plane); // re-inserted last: the map keeps the most recently heard at its end
    this.heardFrom.set(plane, { sent, peerReceived: receivedAt });
    if (this.heardFrom.size > MAX_ECHOED_PLANES) this.heardFrom.delete(this.heardFrom.keys().next().value!);
  }

  /** The header value for a message sent at `now`; undefined when no peer was heard within the window. */
  header(now: number): string | undefined {
    const recent = [...this.heardFrom].filter(([, echo]) => now - echo.peerReceived <= ECHO_WINDOW_MS);
    return recent.length === 0 ? undefined : JSON.stringify(recent.map(([plane, echo]) => [plane, echo.sent, echo.peerReceived]));
  }
}

/**
 * What a peer's header echoes of `self`'s messages: undefined when it names none of them (an
 * older plane sends no header; a newer one may not have heard from `self` yet), an Error saying
 * what is wrong when the header is not a clock echo at all (garbled, or too long).
 */
export function echoedTo(self: string, header: string | undefined): Echo | undefined | Error {
  if (header === undefined) return undefined;
  if (header.length > MAX_ECHO_CHARS) return new Error(`${header.length} characters, more than the ${MAX_ECHO_CHARS} a clock echo takes`);
  let json: unknown;
  try {
    json = JSON.parse(header);
  } catch (error) {
    return new Error(`not JSON (${(error as Error).message})`);
  }
  const parsed = echoSchema.safeParse(json);
  if (!parsed.success) return new Error(`not a list of at most ${MAX_ECHOED_PLANES} [plane, sent, received] entries: ${z.prettifyError(parsed.error)}`);
  const mine = parsed.data.find(([plane]) => plane === self);
  return mine === undefined ? undefined : { sent: mine[1], peerReceived: mine[2] };
}
