import type { Locale } from './enums.js';

/**
 * The error table: every non-zero envelope code the service answers, with its message in each locale.
 * Several keys may share a code (the code is the class of failure, the key the exact reason).
 * The spec's English messages are used verbatim.
 */
export const ERRORS = {
  validation: { code: 40000, en: 'Invalid request: {{detail}}', zh: '请求无效：{{detail}}', pt: 'Pedido inválido: {{detail}}' },
  invalidProductUrl: {
    code: 40001,
    en: 'Please provide a valid product url',
    zh: '请提供有效的商品链接',
    pt: 'Forneça um URL de produto válido',
  },
  emptyInviteCode: { code: 40002, en: 'Please enter invitation code', zh: '请输入邀请码', pt: 'Insira o código de convite' },
  invalidInviteCode: { code: 40003, en: 'Invalid invitation code', zh: '邀请码无效', pt: 'Código de convite inválido' },
  invalidProjectName: {
    code: 40004,
    en: 'The project name must be 1 to 100 characters.',
    zh: '项目名称须为 1 到 100 个字符。',
    pt: 'O nome do projeto deve ter de 1 a 100 caracteres.',
  },
  unknownSku: {
    code: 40005,
    en: 'Unknown price code: {{sku}}',
    zh: '未知的价格代码：{{sku}}',
    pt: 'Código de preço desconhecido: {{sku}}',
  },
  clientHeader: {
    code: 40006,
    en: 'The request must carry the header client: WEB.',
    zh: '请求必须带有 client: WEB 请求头。',
    pt: 'O pedido deve incluir o cabeçalho client: WEB.',
  },
  unauthenticated: { code: 401, en: 'Please sign in first.', zh: '请先登录。', pt: 'Inicie sessão primeiro.' },
  notEnoughCredits: {
    code: 402,
    en: 'Not enough credits: {{needed}} needed, {{available}} available.',
    zh: '积分不足：需要 {{needed}}，可用 {{available}}。',
    pt: 'Créditos insuficientes: são necessários {{needed}}, disponíveis {{available}}.',
  },
  notActive: {
    code: 403,
    en: 'Please activate your account with an invitation code first.',
    zh: '请先使用邀请码激活账号。',
    pt: 'Ative primeiro a sua conta com um código de convite.',
  },
  forbiddenOrigin: {
    code: 403,
    en: 'This request did not come from the Reelsmith app.',
    zh: '此请求并非来自 Reelsmith 应用。',
    pt: 'Este pedido não veio da aplicação Reelsmith.',
  },
  notFound: { code: 404, en: 'Not found.', zh: '未找到。', pt: 'Não encontrado.' },
  conflict: {
    code: 409,
    en: 'This was changed by another request; please try again.',
    zh: '已被其他请求修改，请重试。',
    pt: 'Foi alterado por outro pedido; tente novamente.',
  },
  rateLimited: {
    code: 429,
    en: 'Too many requests, please try again later.',
    zh: '请求过于频繁，请稍后再试。',
    pt: 'Demasiados pedidos, tente novamente mais tarde.',
  },
  loginFailed: {
    code: 40100,
    en: 'Login failed, returning to login page...',
    zh: '登录失败，正在返回登录页面...',
    pt: 'Falha no início de sessão, a voltar à página de início de sessão...',
  },
  internal: {
    code: 500,
    en: 'Something went wrong on our side, please try again later.',
    zh: '服务器出错，请稍后再试。',
    pt: 'Ocorreu um erro do nosso lado, tente novamente mais tarde.',
  },
} as const satisfies Record<string, { code: number } & Record<Locale, string>>;

export type ErrorKey = keyof typeof ERRORS;

/** The message for an error key in a locale, with {{name}} placeholders filled in. */
export function errorMessage(key: ErrorKey, locale: Locale, params: Record<string, string | number> = {}): string {
  const template: string = ERRORS[key][locale];
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}
