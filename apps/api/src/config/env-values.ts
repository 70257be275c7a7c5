/** How a variable's text becomes a value, for config.ts and the settings files beside it. */
import { z } from 'zod';

export const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
export const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
