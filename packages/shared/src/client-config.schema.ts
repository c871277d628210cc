/** GET /api/config/client: the settings the console reads from the server (map tiles, geocoder, the EZVIZ player kit). */
import { z } from 'zod';

export const clientConfigDto = z.object({
  Map: z.object({
    /** An XYZ tile template: {x}, {y}, {z} and optionally {s}; '' for none (the offline base map). */
    TileUrl: z.string(),
    /** The values {s} takes. */
    Subdomains: z.array(z.string()),
    /** An online geocoder template with {q} for the search text, or null when none is configured. */
    GeocoderUrl: z.string().nullable(),
    /** 'lng,lat' (GCJ-02) */
    DefaultCenter: z.string(),
  }),
  Video: z.object({
    /** EZVIZ's web player kit (EZUIKit) for ezopen:// addresses (by default the server's own copy), or null when it is turned off. */
    KitUrl: z.string().nullable(),
    /** Where the kit finds its decoders (its staticPath), or null for the kit's own default. */
    KitStaticPath: z.string().nullable(),
    /** The EZVIZ open platform the kit talks to (its env.domain). */
    EzvizApiUrl: z.string(),
  }),
});
export type ClientConfigDto = z.infer<typeof clientConfigDto>;
