import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { MAX_TOKENS, MAX_WRITES, type CommandAnalysis } from './command-analysis.js';

/** A script file larger than this is not read (the note says so): scripts an agent writes to run are far smaller. */
export const MAX_SCRIPT_FILE_BYTES = 64 * 1024;
/** Script files read for one command, the scripts they run included. */
const MAX_SCRIPT_FILES = 8;
/** `#!/bin/sh`, `#!/usr/bin/env bash`, `#! /bin/zsh -e`…: a file run by its path is read only if a shell runs it. */
const SHELL_SHEBANG = /^#!\s*\S*\/(?:env\s+(?:-\S+\s+)*)?(?:ba|da|z|k)?sh(?:\s|$)/;

type Analyze = (script: string, cwd: string) => Promise<CommandAnalysis>;

/**
 * The command's analysis with the script files it runs (bash x.sh, source x.sh, ./x.sh with a
 * shell's `#!`) read and analysed in turn, and the scripts those run, up to MAX_SCRIPT_FILES: an
 * agent that writes a script in its own folder and runs it is judged by what the script writes.
 */
export async function withScriptFiles(command: CommandAnalysis, analyze: Analyze): Promise<{ analysis: CommandAnalysis; notes: string[] }> {
  const notes: string[] = [];
  const read = new Set<string>();
  const queue = [...command.scripts];
  let analysis = command;
  for (let script = queue.shift(); script !== undefined; script = queue.shift()) {
    if (read.has(script.path)) continue;
    if (read.size >= MAX_SCRIPT_FILES) {
      notes.push(`The command runs more than ${MAX_SCRIPT_FILES} script files: ${script.path} and any after it were not read.`);
      break;
    }
    read.add(script.path);
    const text = readScript(script.path);
    if (text === 'too large') notes.push(`${script.path} is larger than ${MAX_SCRIPT_FILE_BYTES / 1024} KiB: what it writes was not checked.`);
    // Missing, a folder, binary, or not a shell script: there is no shell script to read.
    if (typeof text !== 'object' || (script.shebang && !SHELL_SHEBANG.test(text.source))) continue;
    const inner = await analyze(text.source, script.cwd);
    if (inner.parseError !== undefined) notes.push(`The script ${script.path} was not parsed (${inner.parseError}): only the paths its words name were checked.`);
    queue.push(...inner.scripts);
    analysis = {
      ...analysis,
      writes: [...analysis.writes, ...inner.writes].slice(0, MAX_WRITES),
      namedWrites: analysis.namedWrites + inner.namedWrites,
      findings: [...analysis.findings, ...inner.findings],
      tokens: [...new Set([...analysis.tokens, ...inner.tokens])].slice(0, MAX_TOKENS),
    };
  }
  return { analysis, notes };
}

/** The file's text, if it is a readable text file within the size limit. */
function readScript(path: string): { source: string } | 'too large' | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    if (stat.size > MAX_SCRIPT_FILE_BYTES) return 'too large';
    const buffer = Buffer.alloc(stat.size);
    const length = readSync(fd, buffer, 0, stat.size, 0);
    const source = buffer.subarray(0, length);
    return source.includes(0) ? undefined : { source: source.toString('utf8') };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
