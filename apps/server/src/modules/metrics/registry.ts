// The process's metrics (Prometheus): HTTP requests, task outcomes and the credits they move. Counters live in the
// process that saw the event (charges in API processes, refunds and durations in workers), so a dashboard sums
// them over every process it scrapes; what all processes share (the queue) is read from the database at scrape
// time instead (routes.ts).
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export const processMetrics = new Registry();
collectDefaultMetrics({ register: processMetrics, prefix: 'reelsmith_' });

export const httpRequests = new Counter({
  name: 'reelsmith_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status code',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [processMetrics],
});

export const httpDuration = new Histogram({
  name: 'reelsmith_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method and route pattern',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [processMetrics],
});

export const taskDuration = new Histogram({
  name: 'reelsmith_task_duration_seconds',
  help: 'Time one attempt at a task ran in a worker, by kind and outcome (success, failure, released, lost)',
  labelNames: ['kind', 'outcome'] as const,
  buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 900],
  registers: [processMetrics],
});

export const taskFailures = new Counter({
  name: 'reelsmith_task_failures_total',
  help: 'Tasks ended in FAILURE, by kind and error key (taskCancelled, taskTimedOut, taskInterrupted, generationFailed, …)',
  labelNames: ['kind', 'error'] as const,
  registers: [processMetrics],
});

export const charges = new Counter({
  name: 'reelsmith_charges_total',
  help: 'Tasks charged at submission, by kind',
  labelNames: ['kind'] as const,
  registers: [processMetrics],
});

export const chargedCredits = new Counter({
  name: 'reelsmith_charged_credits_total',
  help: 'Credits charged at task submission, by kind',
  labelNames: ['kind'] as const,
  registers: [processMetrics],
});

export const refunds = new Counter({
  name: 'reelsmith_refunds_total',
  help: 'Failed tasks refunded (REFUND_TASK), by kind',
  labelNames: ['kind'] as const,
  registers: [processMetrics],
});

export const refundedCredits = new Counter({
  name: 'reelsmith_refunded_credits_total',
  help: 'Credits given back to failed tasks, by kind',
  labelNames: ['kind'] as const,
  registers: [processMetrics],
});

export const billingEventsReceived = new Counter({
  name: 'reelsmith_billing_webhooks_total',
  help: "Stripe's webhook deliveries, by event type and outcome (acted, duplicate, ignored, refused, failed)",
  labelNames: ['type', 'outcome'] as const,
  registers: [processMetrics],
});

export const purchases = new Counter({
  name: 'reelsmith_purchases_total',
  help: 'Purchases whose credits were granted: top-up packs and paid months of plans, by kind (pack, plan)',
  labelNames: ['kind'] as const,
  registers: [processMetrics],
});

export const purchasedCredits = new Counter({
  name: 'reelsmith_purchased_credits_total',
  help: 'Credits granted for purchases, by kind (pack, plan)',
  labelNames: ['kind'] as const,
  registers: [processMetrics],
});

export const reversedCredits = new Counter({
  name: 'reelsmith_reversed_credits_total',
  help: 'Credits of refunded or lost-dispute purchases, by what became of them (taken back, owed)',
  labelNames: ['result'] as const,
  registers: [processMetrics],
});
