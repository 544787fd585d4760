// The few parts of better-sqlite3 the baseline uses, declared here so the benchmark needs no
// @types package (the project adds only better-sqlite3 itself as a devDependency).
declare module 'better-sqlite3' {
  export interface RunResult {
    changes: number;
    lastInsertRowid: number | bigint;
  }
  export interface Statement<R = unknown> {
    run(...params: unknown[]): RunResult;
    get(...params: unknown[]): R | undefined;
    all(...params: unknown[]): R[];
  }
  export interface Transaction<F extends (...args: never[]) => unknown> {
    (...args: Parameters<F>): ReturnType<F>;
    immediate(...args: Parameters<F>): ReturnType<F>;
  }
  export interface Db {
    pragma(source: string, options?: { simple?: boolean }): unknown;
    exec(source: string): Db;
    prepare<R = unknown>(source: string): Statement<R>;
    transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F>;
    close(): void;
  }
  const Database: new (filename: string, options?: { timeout?: number }) => Db;
  export default Database;
}
