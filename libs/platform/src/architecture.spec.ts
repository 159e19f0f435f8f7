import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** Boundaries between contexts, checked on every run (STYLE.md §2). */
const ROOT = resolve(__dirname, '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

const importsOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)].map((match) => match[1]);

const contextOf = (file: string): string => relative(join(ROOT, 'libs'), file).split('/')[0];

describe('architecture', () => {
  const libs = readdirSync(join(ROOT, 'libs'));
  const files = libs.flatMap((lib) => sources(join(ROOT, 'libs', lib, 'src')));

  it('keeps domain code free of HTTP, Nest and other contexts', () => {
    const offences = files
      .filter((file) => file.includes('/domain/'))
      .flatMap((file) =>
        importsOf(file)
          .filter(
            (target) =>
              target.startsWith('@nestjs/') ||
              target.includes('/http/') ||
              (target.startsWith('@app/') && target !== '@app/platform'),
          )
          .map((target) => `${relative(ROOT, file)} → ${target}`),
      );
    expect(offences).toEqual([]);
  });

  it('reaches another lib only through its public surface, never by a relative path', () => {
    const offences = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => {
          if (target.startsWith('@app/')) return target.split('/').length > 2; // @app/x/internal
          if (!target.startsWith('.')) return false;
          return contextOf(resolve(file, '..', target)) !== contextOf(file);
        })
        .map((target) => `${relative(ROOT, file)} → ${target}`),
    );
    expect(offences).toEqual([]);
  });

  it('keeps the platform free of business contexts', () => {
    const offences = files
      .filter((file) => contextOf(file) === 'platform')
      .flatMap((file) =>
        importsOf(file)
          .filter((target) => target.startsWith('@app/'))
          .map((t) => `${relative(ROOT, file)} → ${t}`),
      );
    expect(offences).toEqual([]);
  });
});
