import { z } from 'zod';

/** Every answer is `{code, message, data}`; code 0 is success (spec "The calls"). */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ code: z.number().int(), message: z.string(), data: data.nullable() });

export type Envelope<T> = { code: number; message: string; data: T | null };

export const OK_CODE = 0;
