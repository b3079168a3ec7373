import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The dependency rule of STYLE.md: core/ imports nothing but core/ and a few pure Node built-ins.
const coreDir = fileURLToPath(new URL('../src/core/', import.meta.url));
const ALLOWED_BUILTINS = new Set(['node:crypto']);

function importsOf(file: string): string[] {
  const text = readFileSync(join(coreDir, file), 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '');
}

describe('the pure core', () => {
  const files = readdirSync(coreDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

  it('has modules to check', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files)('%s imports only core modules and pure built-ins', (file) => {
    const outside = importsOf(file).filter((spec) => !(spec.startsWith('./') && !spec.includes('/', 2)) && !ALLOWED_BUILTINS.has(spec));
    expect(outside).toEqual([]);
  });

  it.each(files)('%s reads no clock and draws no random numbers', (file) => {
    const code = readFileSync(join(coreDir, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(code).not.toMatch(/\bDate\.now\(|\bnew Date\(\)|\bMath\.random\(|\bperformance\.now\(|\bprocess\./);
  });
});
