/** Areas (spec §7 Areas and regions): China's administrative divisions, for the cascader. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { areaDto, areaQuery } from '@sluice/shared/area.schema';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { areaChain, areaTree, childAreas } from './areas.service.ts';

const tags = ['Areas'];
const list = envelopeOf(z.array(areaDto));

export function areasRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/Area/GetArea',
    {
      config: { access: 'session', legacyToken: true },
      schema: {
        tags,
        summary: 'The children of areaCode (the provinces when none)',
        querystring: areaQuery,
        response: { 200: list },
      },
    },
    async (request, reply) => {
      const areas = await childAreas(request.query.areaCode);
      if (!areas) throw new AppError(404, 'area.unknown', { code: request.query.areaCode ?? '' }, 'areaCode');
      void reply.header('cache-control', 'private, max-age=86400');
      return ok(request, areas);
    },
  );

  app.get(
    '/Area/GetListArea',
    {
      config: { access: 'session', legacyToken: true },
      schema: { tags, summary: 'The whole province → city → county tree', response: { 200: list } },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, max-age=86400');
      return ok(request, await areaTree());
    },
  );

  app.get(
    '/Area/GetParentArea',
    {
      config: { access: 'session', legacyToken: true },
      schema: { tags, summary: 'areaCode and its ancestors, province first', querystring: areaQuery, response: { 200: list } },
    },
    async (request) => {
      const code = request.query.areaCode;
      if (code === undefined) throw new AppError(400, 'rule.required', {}, 'areaCode');
      const chain = await areaChain(code);
      if (!chain) throw new AppError(404, 'area.unknown', { code }, 'areaCode');
      return ok(request, chain);
    },
  );
}
