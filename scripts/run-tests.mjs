// The test command: build, type-check, lint (ESLint, with the folder boundaries), check the
// format (Prettier), then every vitest suite (unit, KiCad-agreement, live, browser), ending with
// one plain "N passed, N failed, N skipped" line. Every KiCad-backed suite
// runs once per KiCad under test (TRACEMAKER_KICAD=9|10|all, default all); the KiCad 10 copy of the
// bench is made first when KiCad 10 is among them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function step(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) {
    console.log(`0 passed, 1 failed: ${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
    process.exit(1);
  }
}

step(process.execPath, ['scripts/build.mjs']);
step('npx', ['tsc', '--noEmit', '-p', '.']);
// engine/ and ipc/ again without the DOM (and engine/ without Node): what they may use is checked.
step('npx', ['tsc', '--noEmit', '-p', 'tsconfig.engine.json']);
step('npx', ['tsc', '--noEmit', '-p', 'tsconfig.ipc.json']);
step('npx', ['eslint', '.']);
step('npx', ['prettier', '--check', '**/*.{ts,mjs,js,json}']);
const kicadWanted = (process.env.TRACEMAKER_KICAD ?? 'all').trim();
if (
  kicadWanted === 'all' ||
  kicadWanted
    .split(',')
    .map((s) => s.trim())
    .includes('10')
)
  step(process.execPath, ['scripts/kicad10-corpus.mjs']);
console.log(`KiCad versions under test: ${kicadWanted === 'all' ? '9 and 10' : kicadWanted} (TRACEMAKER_KICAD)`);

const dir = mkdtempSync(join(tmpdir(), 'tracemaker-tests-'));
const report = join(dir, 'vitest.json');
const r = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const j = JSON.parse(readFileSync(report, 'utf8'));
  passed = j.numPassedTests;
  failed = j.numFailedTests + (j.numRuntimeErrorTestSuites ?? 0);
  skipped = j.numPendingTests + j.numTodoTests;
  for (const s of j.testResults ?? []) {
    if (s.status !== 'failed') continue;
    const results = s.assertionResults ?? [];
    if (results.length === 0) failed++;
    // A file whose setup (beforeAll) failed reports its tests as skipped: they did not pass, so they count as failed.
    const notRun = results.filter((a) => a.status === 'skipped' || a.status === 'pending').length;
    failed += notRun;
    skipped -= notRun;
  }
} catch {
  failed = Math.max(failed, 1);
}
rmSync(dir, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(r.status === 0 && failed === 0 ? 0 : 1);
