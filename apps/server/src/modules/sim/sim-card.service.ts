/**
 * A device's SIM card as the SIM provider reports it: each of the group's provider accounts is
 * asked in turn until one knows the card's ICCID.
 */
import type { SimCardDto } from '@sluice/shared/sim.schema';
import { AppError } from '../../http/errors.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import type { DeviceCardsRepository } from '../devices/device-cards.repository.ts';
import type { SiteScope } from '../sites/site-scope.ts';
import type { SimAccountsRepository } from './sim-accounts.repository.ts';
import { lookupCard } from './simboss.client.ts';

export class SimCardService {
  private readonly accounts: SimAccountsRepository;
  private readonly scope: SiteScope;
  private readonly cards: DeviceCardsRepository;
  private readonly secrets: SecretBox;
  private readonly apiUrl: string;

  constructor(deps: {
    accounts: SimAccountsRepository;
    scope: SiteScope;
    cards: DeviceCardsRepository;
    secrets: SecretBox;
    apiUrl: string;
  }) {
    this.accounts = deps.accounts;
    this.scope = deps.scope;
    this.cards = deps.cards;
    this.secrets = deps.secrets;
    this.apiUrl = deps.apiUrl;
  }

  async lookup(user: CurrentUser, sn: string): Promise<SimCardDto> {
    const device = await this.scope.device(user, sn, 'read');
    const card = await this.cards.of(user.groupId, device.device_sn);
    if (!card) throw new AppError(404, 'sim.noCard');
    const accounts = await this.accounts.ofGroup(user.groupId);
    if (accounts.length === 0) throw new AppError(409, 'sim.noAccount');
    let failure: { error: 'unreachable' | 'provider'; message: string } | undefined;
    for (const account of accounts) {
      const answer = await lookupCard(
        this.apiUrl,
        { appId: account.app_id, appSecret: this.secrets.open(account.app_secret) },
        card.ICCID,
      );
      if ('found' in answer && answer.found) return { ...answer.card, SimAccount: account.sim_account };
      if ('error' in answer) failure ??= answer;
    }
    if (failure?.error === 'unreachable') throw new AppError(502, 'sim.providerUnreachable');
    if (failure) throw new AppError(502, 'sim.providerError', { message: failure.message });
    throw new AppError(404, 'sim.cardUnknown', { iccid: card.ICCID });
  }
}
