import { Injectable } from '@nestjs/common';
import { Principal } from '@app/platform';
import type { RouteUnassignedJson } from '../views/routing-preview.view';

/** Placeholder until the assigner lands (the lead's branch fills it). */
@Injectable()
export class RouteUnassignedService {
  run(_actor: Principal): Promise<RouteUnassignedJson> {
    return Promise.resolve({ considered: 0, assigned: 0, leftWaiting: 0 });
  }
}
