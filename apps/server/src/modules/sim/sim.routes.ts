/**
 * SIM provider accounts (/sys/simboss: simboss list, add, update, delete) and a device card's
 * data from the provider ({g}/{sn}/DeviceCard/simboss). Passwords and app secrets are sealed at
 * rest and only ever sent back masked; an update that leaves them empty or masked keeps them.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deviceSn } from '@sluice/shared/device.schema';
import { SECRET_MASK, addSimAccountRequest, simAccountDto, simCardDto, updateSimAccountRequest } from '@sluice/shared/sim.schema';
import { currentUser } from '../../auth/access.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource } from '../../http/resource.ts';
import { maskedSecret, sealUnlessKept } from '../../security/secret-fields.ts';

const tags = ['SIM'];
const manage = { operate: 'system.manage' } as const;

export function simRoutes(root: FastifyInstance): void {
  const { secrets, simCards } = root.ctx;

  const masked = (sealed: unknown) => maskedSecret(secrets, sealed) || SECRET_MASK;
  const keepOrSeal = (value: unknown) => sealUnlessKept(secrets, value);

  registerResource(root, {
    table: 'sim_accounts',
    audit: { kind: 'simAccount' },
    tags,
    access: { read: manage, write: manage },
    dto: simAccountDto,
    create: addSimAccountRequest,
    update: updateSimAccountRequest,
    sortable: ['SimAccount', 'AppId'],
    searchable: ['SimAccount', 'AppId'],
    enrich: (rows) => Promise.resolve(rows.map((r) => ({ ...r, sim_password: SECRET_MASK, app_secret: masked(r.app_secret) }))),
    routes: {
      all: 'GET /simboss',
      get: 'GET /simboss/:id',
      create: 'POST /simboss',
      update: 'PUT /simboss',
      remove: 'DELETE /simboss/:id',
    },
    beforeWrite: (row) => {
      const { sim_password: password, app_secret: secret, ...rest } = row;
      const [sealedPassword, sealedSecret] = [keepOrSeal(password), keepOrSeal(secret)];
      return {
        ...rest,
        ...(sealedPassword === undefined ? {} : { sim_password: sealedPassword }),
        ...(sealedSecret === undefined ? {} : { app_secret: sealedSecret }),
      };
    },
  });

  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/:g/:sn/DeviceCard/simboss',
    {
      config: { access: { operate: 'device.view' } },
      schema: {
        tags,
        summary:
          "The device's SIM card as the SIM provider reports it (each configured account is asked until one knows the ICCID)",
        params: z.object({ g: z.string(), sn: deviceSn }),
        response: { 200: envelopeOf(simCardDto) },
      },
    },
    async (request) => ok(request, await simCards.lookup(currentUser(request), request.params.sn)),
  );
}
