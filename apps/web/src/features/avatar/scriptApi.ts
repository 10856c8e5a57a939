// The Avatar tool's script from a product link: one hook for its contract call (decision "The Avatar tool").
import { avatarScript, type CallBody } from '@reelsmith/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../shared/api/client';

export const useScriptFromLink = () => useMutation({ mutationFn: (body: CallBody<typeof avatarScript>) => api(avatarScript, { body }) });
