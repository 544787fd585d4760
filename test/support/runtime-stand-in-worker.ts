// The process of a RuntimeStandIn: runs each command it is sent through a shell, as its own child,
// and sends back what the command printed.
import { spawn } from 'node:child_process';

interface RunRequest {
  id: number;
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  input: string;
}

process.on('message', (request: RunRequest) => {
  const child = spawn('sh', ['-c', request.command], { cwd: request.cwd, env: request.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.on('close', (status) => process.send!({ id: request.id, status, stdout, stderr }));
  child.stdin.end(request.input);
});
