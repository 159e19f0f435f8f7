import { Injectable } from '@nestjs/common';
import type { PortalAdapter } from '../portal-adapter';
import { DemoPortalAdapter } from './demo-portal.adapter';

/** Every portal the service talks to, by name (`demoportal` is built in). */
@Injectable()
export class PortalRegistry {
  private readonly byName: ReadonlyMap<string, PortalAdapter>;

  constructor(demo: DemoPortalAdapter) {
    this.byName = new Map([[demo.name, demo]]);
  }

  get(name: string): PortalAdapter | null {
    return this.byName.get(name) ?? null;
  }

  get names(): string[] {
    return [...this.byName.keys()];
  }

  all(): PortalAdapter[] {
    return [...this.byName.values()];
  }
}
