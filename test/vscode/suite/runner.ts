// A small sequential test runner for inside the extension host (node:test would report to a stdout
// nobody reads there). Each result is logged and written to FLEET_TEST_RESULTS for the node side,
// which checks the count: a suite that silently ran nothing fails there.
import { writeFileSync } from 'node:fs';

interface Case {
  name: string;
  fn: () => Promise<void>;
  timeoutMs: number;
}

export interface SuiteResults {
  passed: { name: string; ms: number }[];
  failed: { name: string; ms: number; error: string }[];
  measurements: Record<string, unknown>;
}

const cases: Case[] = [];
const measurements: Record<string, unknown> = {};

export function test(name: string, fn: () => Promise<void>, timeoutMs = 60_000): void {
  cases.push({ name, fn, timeoutMs });
}

/** Figures the node side reports (badge latency and the like); not assertions. */
export function measure(key: string, value: unknown): void {
  measurements[key] = value;
}

export async function runAll(): Promise<void> {
  const results: SuiteResults = { passed: [], failed: [], measurements };
  for (const { name, fn, timeoutMs } of cases) {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        fn(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      results.passed.push({ name, ms: Date.now() - started });
      console.log(`fleet-suite: ✔ ${name} (${Date.now() - started} ms)`);
    } catch (error) {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      results.failed.push({ name, ms: Date.now() - started, error: text });
      console.log(`fleet-suite: ✖ ${name} (${Date.now() - started} ms)\n${text}`);
    } finally {
      clearTimeout(timer);
    }
  }
  const file = process.env.FLEET_TEST_RESULTS;
  if (file) writeFileSync(file, JSON.stringify(results, null, 2));
  console.log(`fleet-suite: ${results.passed.length} passed, ${results.failed.length} failed`);
  if (results.failed.length > 0 || results.passed.length === 0) {
    throw new Error(`${results.failed.length} of ${cases.length} extension tests failed: ${results.failed.map((failure) => failure.name).join('; ')}`);
  }
}
