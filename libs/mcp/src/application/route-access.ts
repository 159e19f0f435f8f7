import { Injectable, RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { ACCESS, ADMIN_ONLY, PLAN_REQUIRED, type Scope } from '@app/platform';
import type { V1Route } from '../tools/tool';

/** What a `/v1` route's guards check: the declarations a tool mirroring it is held to. */
export interface RouteGrant {
  scopes: readonly Scope[];
  adminOnly: boolean;
  plan: boolean;
}

const template = (...parts: string[]): string =>
  `/${parts
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .map((segment) => segment.replace(/:(\w+)/g, '{$1}'))
    .join('/')}`;

/**
 * The `/v1` routes' declarations, read from the controllers the app serves (the metadata the
 * guards read, not a copy): a tool names its route and gets that route's checks. A tool naming a
 * route that is not an API-key route (`/v1`, or the listing family's `/properties/*`) stops the boot.
 */
@Injectable()
export class RouteAccess {
  private routes?: Map<string, RouteGrant>;

  constructor(private readonly modules: ModulesContainer) {}

  grantOf(route: V1Route): RouteGrant {
    this.routes ??= this.build();
    const grant = this.routes.get(route);
    if (!grant) throw new Error(`MCP tool mirrors ${route}, which is not an API-key route of this app`);
    return grant;
  }

  private build(): Map<string, RouteGrant> {
    const reflector = new Reflector();
    const scanner = new MetadataScanner();
    const routes = new Map<string, RouteGrant>();
    const seen = new Set<Type>();
    for (const module of this.modules.values()) {
      for (const wrapper of module.controllers.values()) {
        const controller = wrapper.metatype as Type | null;
        if (!controller || seen.has(controller)) continue;
        seen.add(controller);
        const bases = [Reflect.getMetadata(PATH_METADATA, controller) ?? ''].flat() as string[];
        for (const name of scanner.getAllMethodNames(controller.prototype as object)) {
          const handler = (controller.prototype as Record<string, () => unknown>)[name];
          const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
          const access = reflector.getAllAndOverride(ACCESS, [handler, controller]);
          if (method === undefined || access?.kind !== 'apiKey') continue;
          const grant: RouteGrant = {
            scopes: access.scopes,
            adminOnly: reflector.getAllAndOverride(ADMIN_ONLY, [handler, controller]) ?? false,
            plan: reflector.getAllAndOverride(PLAN_REQUIRED, [handler, controller]) ?? false,
          };
          const paths = [Reflect.getMetadata(PATH_METADATA, handler) ?? ''].flat() as string[];
          for (const base of bases)
            for (const path of paths) routes.set(`${RequestMethod[method]} ${template(base, path)}`, grant);
        }
      }
    }
    return routes;
  }
}
