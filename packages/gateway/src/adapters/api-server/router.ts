/** Method + path patterns (`/v1/runs/:id/events`) to route handlers. */
import { ApiError, unknownRoute } from './api-error.js';
import type { ApiServices, RouteContext } from './route-context.js';

/** Answers one request. */
export type RouteHandler = (ctx: RouteContext, services: ApiServices) => Promise<void>;

/** One route. */
export interface Route {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** A path with `:name` parts, each matching one non-empty segment. */
  readonly path: string;
  readonly handle: RouteHandler;
}

interface Compiled {
  readonly route: Route;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

/** A route found for a request, with the path's named parts. */
export interface RouteMatch {
  readonly handle: RouteHandler;
  readonly params: Readonly<Record<string, string>>;
}

/** Finds the route of a request. */
export class Router {
  readonly #routes: readonly Compiled[];

  constructor(routes: readonly Route[]) {
    this.#routes = routes.map((route) => {
      const names: string[] = [];
      const source = route.path
        .split('/')
        .map((segment) => {
          if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          names.push(segment.slice(1));
          return '([^/]+)';
        })
        .join('/');
      return { route, pattern: new RegExp(`^${source}/?$`), names };
    });
  }

  /**
   * The route for `method` and `path`.
   *
   * @throws ApiError 404 for a path no route serves, 405 (with `Allow`) for a wrong method.
   */
  match(method: string, path: string): RouteMatch {
    const allowed: string[] = [];
    for (const { route, pattern, names } of this.#routes) {
      const found = pattern.exec(path);
      if (!found) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      names.forEach((name, index) => {
        params[name] = decodeSegment(found[index + 1] ?? '');
      });
      return { handle: route.handle, params };
    }
    if (allowed.length === 0) throw unknownRoute(method, path);
    throw new ApiError(405, `Method ${method} is not allowed on ${path}.`, {
      code: 'method_not_allowed',
      headers: { allow: allowed.join(', ') },
    });
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ApiError(400, `The path segment '${segment}' is not valid percent-encoding.`, {
      code: 'invalid_path',
    });
  }
}
