import {
  webhookDeliveryList,
  webhookDeliveryResend,
  webhookEndpointCreate,
  webhookEndpointDelete,
  webhookEndpointList,
  webhookEndpointUpdate,
} from '@reelsmith/contract';
import { defineModule } from '../../http/module.js';
import { createEndpoint, deleteEndpoint, listDeliveries, listEndpoints, resendDelivery, updateEndpoint } from './service.js';

export const webhooksModule = defineModule((_api, { route, ctx }) => {
  route(webhookEndpointCreate, ({ user, body }) => createEndpoint(ctx, user.userId, body));
  route(webhookEndpointList, ({ user }) => listEndpoints(ctx, user.userId));
  route(webhookEndpointUpdate, ({ user, body }) => updateEndpoint(ctx, user.userId, body));
  route(webhookEndpointDelete, ({ user, body }) => deleteEndpoint(ctx, user.userId, body.endpointId));
  route(webhookDeliveryList, ({ user, body }) => listDeliveries(ctx, user.userId, body));
  route(webhookDeliveryResend, ({ user, body }) => resendDelivery(ctx, user.userId, body.deliveryId));
});
