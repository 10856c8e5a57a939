import { z } from 'zod';
import { defineCall, SHELL_ROUTES } from './call.js';
import { UserStatus } from './enums.js';

export const User = z.object({
  userId: z.string(),
  username: z.string(),
  email: z.string(),
  avatarUrl: z.string().nullable(),
  status: UserStatus,
});
export type User = z.infer<typeof User>;

export const usersMe = defineCall({ method: 'GET', path: '/users/me', access: 'signedIn', data: User });

/** An empty code is allowed through the schema so the service can answer "Please enter invitation code". */
export const usersActivate = defineCall({
  method: 'POST',
  path: '/users/activate',
  access: 'signedIn',
  query: z.strictObject({ inviteCode: z.string().max(64).default('') }),
  data: z.boolean(),
});

export const usersLogout = defineCall({ ...SHELL_ROUTES.usersLogout, data: z.boolean() });
