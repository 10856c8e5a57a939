// The billing calls of the Get credits and purchase pages, keyed by their contract calls (shared/api/queries.ts).
import { billingCheckout, billingOffers, billingPortal, billingPurchase, type PurchaseState } from '@reelsmith/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../shared/api/client';
import { callQuery } from '../../shared/api/queries';

export const useOffers = () => useQuery(callQuery(billingOffers));

/** How often a purchase is asked while the payment service has not confirmed it. */
export const PURCHASE_POLL_MS = 1_500;
/** After this long still waiting, the payment is one the bank confirms later (a boleto, a transfer): the page says so. */
export const PURCHASE_LATE_MS = 120_000;
/** Past that, the purchase is asked less often: the page may stay open for hours. */
const LATE_POLL_MS = 10_000;

const ended = (state: PurchaseState | undefined) => state === 'granted' || state === 'unpaid';

/**
 * The purchase a return from the payment service names, asked until it is granted or not paid. A failed ask stops
 * the asking (the API client has shown why; the page offers to retry). `late` slows it down.
 */
export function usePurchase(session: string | null, late: boolean) {
  return useQuery({
    ...callQuery(billingPurchase, { query: { session: session ?? '' } }),
    enabled: session !== null,
    refetchInterval: (query) => {
      if (query.state.status === 'error' || ended(query.state.data?.state)) return false;
      return late ? LATE_POLL_MS : PURCHASE_POLL_MS;
    },
    refetchIntervalInBackground: true,
  });
}

/** The browser leaving for the payment service's own page (Checkout, the billing portal): a full-page navigation. */
export const paymentService = {
  open: (url: string) => {
    window.location.href = url;
  },
};

/**
 * Asks the service where to pay (or manage billing) and sends the browser there. `going` holds from the click until
 * the page is gone, naming what was asked for, so its button keeps spinning and the others wait; coming back with
 * the browser's Back button (a page restored as it was left) lets them go.
 */
function usePaymentPage<T>(ask: (what: T) => Promise<{ url: string }>) {
  const mutation = useMutation({ mutationFn: ask, onSuccess: ({ url }) => paymentService.open(url) });
  const { reset } = mutation;
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, [reset]);
  const going = mutation.isPending || mutation.isSuccess;
  // A refusal has been shown by the API client, in the service's words.
  return { open: mutation.mutate, going, target: going ? mutation.variables : undefined };
}

/** Checkout for an offer (a pack or a plan), by its code. */
export const useCheckout = () => usePaymentPage((offer: string) => api(billingCheckout, { body: { offer } }));

/** The billing portal, where a plan is changed or cancelled and invoices are read. */
export const usePortal = () => usePaymentPage((_: undefined) => api(billingPortal));
