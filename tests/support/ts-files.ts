// Every TypeScript source file below a folder (declaration files aside), in a fixed order, for the
// tests that read the tree itself (folder boundaries, function lengths).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}
