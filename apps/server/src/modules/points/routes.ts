import { pointsAccount, pointsList, pointsRefresh, pointsSkuPrice } from '@reelsmith/contract';
import { defineModule } from '../../http/module.js';
import { expireDueCredits } from './ledger.js';
import { priceOf, skuCodeOf } from './prices.js';
import { listHistory, readAccount } from './queries.js';
import { shownPrice } from './standIns.js';

export const pointsModule = defineModule((_api, { route, ctx: { db, providers } }) => {
  route(pointsSkuPrice, async ({ query }) => {
    const skuCode = skuCodeOf(query.skuCode);
    return { skuCode, ...shownPrice(providers, skuCode, await priceOf(db, skuCode), query.madeBy) };
  });
  route(pointsAccount, ({ user }) => readAccount(db, user.userId));
  // The web app refreshes after a charge: the moment to expire credits the minute's sweep has not reached yet.
  route(pointsRefresh, async ({ user }) => {
    await expireDueCredits(db, user.userId);
    return readAccount(db, user.userId);
  });
  route(pointsList, ({ user, body }) => listHistory(db, user.userId, body));
});
