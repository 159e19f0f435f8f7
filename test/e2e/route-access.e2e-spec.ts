import { RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ACCESS, ADMIN_ONLY, PLAN_REQUIRED } from '@app/platform';
import { TestApp } from '../fixtures';

/**
 * Who may call what, as a reviewed diff: every route's declaration is snapshotted. Adding a route or
 * changing its access fails this test until the snapshot is updated on purpose
 * (`npx jest -u test/e2e/route-access.e2e-spec.ts`) and the diff is reviewed.
 */
interface Declaration {
  scopes: unknown;
  adminOnly: unknown;
  plan: unknown;
  security: unknown;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function declarations(document: OpenAPIObject): Record<string, Declaration> {
  const rows: [string, Declaration][] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const op = (item as Record<string, Record<string, unknown> | undefined>)[method];
      if (!op) continue;
      rows.push([
        `${method.toUpperCase()} ${path}`,
        {
          scopes: op['x-required-scopes'],
          adminOnly: op['x-admin-only'] ?? false,
          plan: op['x-requires-plan'] ?? false,
          security: op.security ?? [],
        },
      ]);
    }
  }
  rows.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(rows);
}

/** Every route the router serves, with the access metadata the guard reads (not the docs). */
function servedRoutes(t: TestApp): { route: string; scopes: unknown; adminOnly: boolean; plan: boolean }[] {
  const reflector = new Reflector();
  const scanner = new MetadataScanner();
  const controllers = new Set<Type>();
  for (const module of t.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) controllers.add(wrapper.metatype as Type);
  }
  const join = (...parts: string[]) =>
    `/${parts
      .flatMap((part) => part.split('/'))
      .filter(Boolean)
      .map((segment) => segment.replace(/:(\w+)/g, '{$1}'))
      .join('/')}`;
  return [...controllers].flatMap((controller) => {
    const base = [Reflect.getMetadata(PATH_METADATA, controller) ?? ''].flat() as string[];
    return scanner.getAllMethodNames(controller.prototype).flatMap((name) => {
      const handler = controller.prototype[name] as object;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) return [];
      const paths = [Reflect.getMetadata(PATH_METADATA, handler) ?? ''].flat() as string[];
      const access = reflector.getAllAndOverride(ACCESS, [handler as never, controller]);
      const row = {
        scopes: access === undefined ? undefined : access.kind === 'apiKey' ? [...access.scopes] : [],
        adminOnly: reflector.getAllAndOverride(ADMIN_ONLY, [handler as never, controller]) ?? false,
        plan: reflector.getAllAndOverride(PLAN_REQUIRED, [handler as never, controller]) ?? false,
      };
      return base.flatMap((b) =>
        paths.map((p) => ({ route: `${RequestMethod[method]} ${join(b, p)}`, ...row })),
      );
    });
  });
}

describe('route access declarations', () => {
  let t: TestApp;
  let document: OpenAPIObject;

  beforeAll(async () => {
    t = await TestApp.start();
    // the document clients are served (built once at start from the controllers and decorators)
    document = (await t.http.get('/v1/openapi.json').expect(200)).body as OpenAPIObject;
  });
  afterAll(() => t.stop());

  it('matches the reviewed snapshot', () => {
    expect(declarations(document)).toMatchSnapshot();
  });

  it('names x-required-scopes on every operation', () => {
    const rows = Object.entries(declarations(document));
    expect(rows.length).toBeGreaterThan(0);
    const missing = rows.filter(([, d]) => !Array.isArray(d.scopes)).map(([route]) => route);
    expect(missing).toEqual([]);
  });

  it('documents every route the app serves, exactly as the guard enforces it', () => {
    const documented = declarations(document);
    const served = servedRoutes(t);
    expect(served.length).toBeGreaterThan(0);
    const undeclared = served.filter((route) => route.scopes === undefined).map((route) => route.route);
    expect(undeclared).toEqual([]);
    const enforced = Object.fromEntries(
      served.map(({ route, ...access }) => [route, access] as const).sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    const docs = Object.fromEntries(
      Object.entries(documented).map(([route, d]) => [
        route,
        { scopes: d.scopes, adminOnly: d.adminOnly, plan: d.plan },
      ]),
    );
    expect(docs).toEqual(enforced);
  });
});
