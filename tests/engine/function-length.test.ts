// No function in engine/ runs past MAX_LINES lines: a long body is several concerns that want
// names of their own. Every function, method, accessor, constructor and arrow with a body is
// measured from its first line to its last (its nested functions count towards it too), read
// with the TypeScript compiler's parser, so strings and comments cannot confuse the count.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tsFiles } from '../support/ts-files.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const MAX_LINES = 120;

/** Files still waiting to be split, relative to the repository with '/' separators. Keep empty. */
const ALLOWED = new Set<string>([]);

function functionName(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  return '(anonymous)';
}

/** Functions of one file longer than MAX_LINES, as "path:line name (n lines)". */
function longFunctions(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const rel = relative(ROOT, file).split('\\').join('/');
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const first = source.getLineAndCharacterOfPosition(fn.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(fn.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_LINES) found.push(`${rel}:${first + 1} ${functionName(fn, source)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length in engine/', () => {
  const files = tsFiles(join(ROOT, 'engine'));

  it(`has no function over ${MAX_LINES} lines outside the allow-list`, () => {
    const long = files.filter((f) => !ALLOWED.has(relative(ROOT, f).split('\\').join('/'))).flatMap((f) => longFunctions(f));
    expect(long).toEqual([]);
  });

  it('lists only files that exist', () => {
    const present = new Set(files.map((f) => relative(ROOT, f).split('\\').join('/')));
    expect([...ALLOWED].filter((f) => !present.has(f))).toEqual([]);
  });
});
