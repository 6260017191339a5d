// What the refresh actions on a source file offer: the refresh request where the Hermes build reads
// one, else the older way (clearing the stored prompt), named as such, instead of a request that
// nothing would read. An editor without a confirmation (Neovim) runs exactly what the title says.
import type { HermesBuild } from '../hermes/install/hermesBuild';
import { requestBlockedBy } from '../hermes/refresh/refreshWording';

export type RefreshOffer =
  | { readonly kind: 'request' }
  | {
      readonly kind: 'clear-prompt';
      /** Why the older way: for the titles, short. */
      readonly why: string;
    };

export function refreshOffer(build: HermesBuild): RefreshOffer {
  if (requestBlockedBy(build) === undefined) return { kind: 'request' };
  const why = build.kind === 'found' ? `Hermes ${build.version} cannot adopt a refresh request` : 'the Hermes installation cannot be read';
  return { kind: 'clear-prompt', why };
}
