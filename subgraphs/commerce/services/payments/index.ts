import { AppError } from '../../../kernel/errors.ts';
import type { Runtime } from '../../../kernel/runtime.ts';
import type { PaymentProvider } from './provider.ts';
import { SandboxProvider } from './sandbox.ts';

export type { PaymentProvider } from './provider.ts';

const providers = new WeakMap<Runtime, Map<string, PaymentProvider>>();

/** The provider adapter of a name (`sandbox`; a Stripe adapter registers as `stripe`). */
export function providerFor(runtime: Runtime, name: string): PaymentProvider {
  let byName = providers.get(runtime);
  if (!byName) providers.set(runtime, (byName = new Map()));
  let provider = byName.get(name);
  if (!provider) {
    if (name === 'sandbox' && !runtime.config.production) provider = new SandboxProvider(runtime);
    else throw new AppError('INTERNAL', `No payment provider "${name}" is configured`);
    byName.set(name, provider);
  }
  return provider;
}
