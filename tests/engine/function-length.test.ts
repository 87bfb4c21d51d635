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

function functionName(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  return '(anonymous)';
}

/** Functions of one file's text longer than MAX_LINES, as "path:line name (n lines)". */
function longFunctions(rel: string, text: string): string[] {
  const source = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true);
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

  it(`has no function over ${MAX_LINES} lines`, () => {
    const long = files.flatMap((f) => longFunctions(relative(ROOT, f).split('\\').join('/'), readFileSync(f, 'utf8')));
    expect(long).toEqual([]);
  });

  it('measures a function from its first line to its last, nested ones counted in', () => {
    const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  const x${i} = ${i};`).join('\n');
    const text = `export function fits(): void {\n${body(MAX_LINES)}\n}\nclass C {\n  long(): void {\n    const inner = () => {\n${body(MAX_LINES)}\n    };\n    inner();\n  }\n}\n`;
    expect(longFunctions('probe.ts', text)).toEqual([`probe.ts:${MAX_LINES + 2} long (${MAX_LINES + 3} lines)`]);
  });
});
