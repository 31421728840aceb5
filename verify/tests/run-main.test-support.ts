import { main } from '../cli.ts';

/** Runs the CLI in this process; what it wrote and its exit code. */
export async function runMain(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t), progress: null });
  return { code, out, err };
}
