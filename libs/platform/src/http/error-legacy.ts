import { RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ACCESS } from '../auth/access.decorators';
import type { ErrorBody, ValidationIssue } from '../errors/error-codes';

/**
 * The listing families answer their errors in the legacy shape (INTERFACES.md "Listings"), decided
 * by path so that unknown sub-paths and errors raised before routing (a body that is not JSON) are
 * covered too: `/properties`, `/properties/…`, `/property-sources`, `/property-sources/…`.
 */
const LISTING_PATH = /^\/(properties|property-sources)(\/|$)/i;

export const isListingPath = (path: string): boolean => LISTING_PATH.test(path);

/** `{ statusCode, code, message, missingScopes, requiredScopes }`, both arrays always present. */
export interface LegacyErrorBody {
  statusCode: number;
  code: string;
  message: string;
  missingScopes: string[];
  requiredScopes: string[];
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/**
 * The envelope's body in the legacy shape. `requiredScopes` are the route's scopes ([] when no
 * route matched); `missingScopes` the scope refusal's `details.missing`; a validation error's
 * `message` names its first issue (`title: title must be shorter than or equal to 200 characters`).
 */
export function toLegacyBody(body: ErrorBody, requiredScopes: readonly string[]): LegacyErrorBody {
  let message = body.message;
  if (body.code === 'VALIDATION_FAILED') {
    const [first] = (body.details?.issues ?? []) as ValidationIssue[];
    if (first) message = first.path ? `${first.path}: ${first.message}` : first.message;
  }
  return {
    statusCode: body.status,
    code: body.code,
    message,
    missingScopes: body.code === 'API_KEY_SCOPE_MISSING' ? strings(body.details?.missing) : [],
    requiredScopes: [...requiredScopes],
  };
}

interface RouteScopes {
  /** `GET`, `POST`, … or `ALL`. */
  method: string;
  template: string;
  pattern: RegExp;
  /** Parameters in the template: a static route wins over a parameterised one, as routers do. */
  params: number;
  scopes: readonly string[];
}

const joinPath = (...parts: string[]): string =>
  `/${parts
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .join('/')}`;

/** An Express 5 route template as a pattern: `:name` one segment, `*name` the rest, `{…}` optional. */
const patternOf = (template: string): RegExp => {
  const source = template
    .replace(/[.+?^$|()[\]\\]/g, '\\$&')
    .replace(/\{([^}]*)\}/g, '(?:$1)?')
    .replace(/:\w+/g, '[^/]+')
    .replace(/\*\w+/g, '.+');
  return new RegExp(`^${source}/?$`, 'i');
};

/**
 * The scopes of every listing-family route, read at the first error from the controllers' ACCESS
 * metadata (the same declarations the guards read), so an error raised before the route is known
 * still names them: `scopesOf(req)` by the matched route template, else by method and path.
 */
export class ListingRouteScopes {
  private routes?: RouteScopes[];

  constructor(private readonly modules: ModulesContainer) {}

  scopesOf(req: Request): readonly string[] {
    const routes = (this.routes ??= this.build());
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const candidates = routes.filter((route) => route.method === method || route.method === 'ALL');
    const template = (req.route as { path?: unknown } | undefined)?.path;
    const exact = typeof template === 'string' && candidates.find((route) => route.template === template);
    if (exact) return exact.scopes;
    const matched = candidates
      .filter((route) => route.pattern.test(req.path))
      .sort((a, b) => a.params - b.params);
    return matched[0]?.scopes ?? [];
  }

  private build(): RouteScopes[] {
    const reflector = new Reflector();
    const scanner = new MetadataScanner();
    const routes: RouteScopes[] = [];
    const seen = new Set<Type>();
    for (const module of this.modules.values()) {
      for (const wrapper of module.controllers.values()) {
        const controller = wrapper.metatype as Type | null;
        if (!controller || seen.has(controller)) continue;
        seen.add(controller);
        const bases = [Reflect.getMetadata(PATH_METADATA, controller) ?? ''].flat() as string[];
        for (const name of scanner.getAllMethodNames(controller.prototype as object)) {
          const handler = (controller.prototype as Record<string, unknown>)[name] as (
            ...args: unknown[]
          ) => unknown;
          const access = reflector.getAllAndOverride(ACCESS, [handler, controller]);
          if (access?.kind !== 'apiKey' || access.family !== 'listings') continue;
          const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
          const paths = [Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined]
            .flat()
            .filter((path): path is string => path !== undefined);
          if (requestMethod === undefined || paths.length === 0) continue;
          for (const base of bases) {
            for (const path of paths) {
              const template = joinPath(base, path);
              routes.push({
                method: RequestMethod[requestMethod],
                template,
                pattern: patternOf(template),
                params: (template.match(/[:*]\w+/g) ?? []).length,
                scopes: access.scopes,
              });
            }
          }
        }
      }
    }
    return routes;
  }
}
