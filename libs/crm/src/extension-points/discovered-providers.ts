import { DiscoveryService, Reflector } from '@nestjs/core';

type Marker = ReturnType<typeof Reflector.createDecorator<true>>;

/**
 * The instances of every provider class carrying `marker`, in any module of the app (the way
 * `@Periodic` handlers are found), each once.
 */
export function discoverMarked<T>(discovery: DiscoveryService, reflector: Reflector, marker: Marker): T[] {
  const found = new Set<T>();
  for (const wrapper of discovery.getProviders()) {
    if (!wrapper.metatype || !wrapper.instance || !wrapper.isDependencyTreeStatic()) continue;
    if (reflector.get(marker, wrapper.metatype)) found.add(wrapper.instance as T);
  }
  return [...found];
}
