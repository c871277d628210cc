/** The server (src/main.ts) as a child process of a test, with its log. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/** The server as a child process, with its log and a wait for lines in it. */
export function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', main], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiting: { patterns: RegExp[]; resolve: () => void }[] = [];
  const read = (chunk: Buffer) => {
    output += chunk.toString();
    for (const w of waiting.filter((w) => w.patterns.every((p) => p.test(output)))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  return {
    child,
    output: () => output,
    exited: new Promise<number | null>((resolve) => child.on('exit', resolve)),
    /** Resolves once the log shows every pattern (the test's time limit bounds the wait). */
    logged: (...patterns: RegExp[]) =>
      new Promise<void>((resolve) => {
        if (patterns.every((p) => p.test(output))) resolve();
        else waiting.push({ patterns, resolve });
      }),
  };
}
