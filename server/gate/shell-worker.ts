import { parentPort } from 'node:worker_threads';
import { analyzeCommand } from './command-analysis.js';
import type { AnalysisRequest, AnalysisReply } from './shell-analyzer.js';

/** The parser's thread: parsing a long command takes tens of ms, which the plane's loop must not spend. */
parentPort?.on('message', (request: AnalysisRequest) => {
  let reply: AnalysisReply;
  try {
    reply = { id: request.id, analysis: analyzeCommand(request.command, request.cwd, request.known, request.homes, request.local) };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
