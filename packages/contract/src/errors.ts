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
  fileEmpty: { code: 40010, en: 'The file is empty.', zh: '文件为空。', pt: 'O ficheiro está vazio.' },
  fileTooLarge: {
    code: 40011,
    en: 'The file is too large: up to {{limitMb}} MB.',
    zh: '文件过大：最大 {{limitMb}} MB。',
    pt: 'O ficheiro é demasiado grande: até {{limitMb}} MB.',
  },
  fileFormatUnsupported: {
    code: 40012,
    en: 'This file format is not supported. Please use {{types}}.',
    zh: '不支持此文件格式。请使用 {{types}}。',
    pt: 'Este formato de ficheiro não é suportado. Use {{types}}.',
  },
  fileUnreadable: {
    code: 40013,
    en: 'The file is damaged or incomplete and cannot be read.',
    zh: '文件已损坏或不完整，无法读取。',
    pt: 'O ficheiro está danificado ou incompleto e não pode ser lido.',
  },
  fileSideOutOfRange: {
    code: 40014,
    en: 'Each side must be between {{min}} px and {{max}} px.',
    zh: '每条边须在 {{min}} 像素到 {{max}} 像素之间。',
    pt: 'Cada lado deve ter entre {{min}} px e {{max}} px.',
  },
  videoWithoutPicture: {
    code: 40015,
    en: 'The video has no picture.',
    zh: '该视频没有画面。',
    pt: 'O vídeo não tem imagem.',
  },
  importBlocked: {
    code: 40016,
    en: 'Import failed: only public http or https addresses can be imported.',
    zh: '导入失败：只能导入公开的 http 或 https 地址。',
    pt: 'A importação falhou: só é possível importar endereços http ou https públicos.',
  },
  importUnreachable: {
    code: 40017,
    en: 'Import failed: the address could not be reached.',
    zh: '导入失败：无法访问该地址。',
    pt: 'A importação falhou: não foi possível aceder ao endereço.',
  },
  importTimedOut: {
    code: 40018,
    en: 'Import failed: the address took too long to answer.',
    zh: '导入失败：该地址响应超时。',
    pt: 'A importação falhou: o endereço demorou demasiado a responder.',
  },
  importHttpError: {
    code: 40019,
    en: 'Import failed: the address answered with HTTP {{status}}.',
    zh: '导入失败：该地址返回了 HTTP {{status}}。',
    pt: 'A importação falhou: o endereço respondeu com HTTP {{status}}.',
  },
  pageBlocked: {
    code: 40030,
    en: 'Analysis failed: only public http or https pages can be analysed.',
    zh: '分析失败：只能分析公开的 http 或 https 页面。',
    pt: 'A análise falhou: só é possível analisar páginas http ou https públicas.',
  },
  pageUnreachable: {
    code: 40031,
    en: 'Analysis failed: the page could not be reached.',
    zh: '分析失败：无法访问该页面。',
    pt: 'A análise falhou: não foi possível aceder à página.',
  },
  pageTimedOut: {
    code: 40032,
    en: 'Analysis failed: the page took too long to answer.',
    zh: '分析失败：页面响应超时。',
    pt: 'A análise falhou: a página demorou demasiado a responder.',
  },
  pageHttpError: {
    code: 40033,
    en: 'Analysis failed: the page answered with HTTP {{status}}.',
    zh: '分析失败：页面返回了 HTTP {{status}}。',
    pt: 'A análise falhou: a página respondeu com HTTP {{status}}.',
  },
  pageTooLarge: {
    code: 40034,
    en: 'Analysis failed: the page is larger than {{limitMb}} MB.',
    zh: '分析失败：页面大于 {{limitMb}} MB。',
    pt: 'A análise falhou: a página tem mais de {{limitMb}} MB.',
  },
  pageCaptureMissing: {
    code: 40035,
    en: 'The saved copy of this page could not be found; please open the product page and capture it again.',
    zh: '找不到此页面的已保存副本，请打开商品页面重新抓取。',
    pt: 'A cópia guardada desta página não foi encontrada; abra a página do produto e capture-a novamente.',
  },
  pageCaptureTooLarge: {
    code: 40037,
    en: 'The captured page is larger than {{limitMb}} MB.',
    zh: '抓取的页面大于 {{limitMb}} MB。',
    pt: 'A página capturada tem mais de {{limitMb}} MB.',
  },
  noProductFound: {
    code: 40036,
    en: 'No product found on this page. Please provide a valid product url',
    zh: '此页面上未找到商品。请提供有效的商品链接',
    pt: 'Nenhum produto encontrado nesta página. Forneça um URL de produto válido',
  },
  uploadLinkInvalid: {
    code: 403,
    en: 'This upload or download link is invalid or has expired.',
    zh: '此上传或下载链接无效或已过期。',
    pt: 'Esta ligação de carregamento ou transferência é inválida ou expirou.',
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
  previewNotFound: {
    code: 40410,
    en: 'This preview no longer exists or is not finished yet; please generate the videos again.',
    zh: '该预览不存在或尚未完成，请重新生成视频。',
    pt: 'Esta pré-visualização já não existe ou ainda não terminou; gere os vídeos novamente.',
  },
  scriptNotFound: {
    code: 40411,
    en: 'This script is not one of the generated previews.',
    zh: '该脚本不属于已生成的预览。',
    pt: 'Este guião não pertence às pré-visualizações geradas.',
  },
  emptyScript: { code: 40040, en: 'Please enter script content.', zh: '请输入脚本内容。', pt: 'Introduza o conteúdo do guião.' },
  noMaterials: {
    code: 40041,
    en: 'Please upload materials for your video.',
    zh: '请为视频上传素材。',
    pt: 'Carregue materiais para o seu vídeo.',
  },
  imageRequired: {
    code: 40070,
    en: 'Please upload a product image.',
    zh: '请上传商品图片。',
    pt: 'Carregue uma imagem do produto.',
  },
  backgroundRequired: {
    code: 40071,
    en: 'AI background needs an image and a background',
    zh: 'AI 背景需要一张图片和一个背景',
    pt: 'O fundo com IA precisa de uma imagem e de um fundo',
  },
  backgroundNotFound: {
    code: 40072,
    en: 'This background is not in the list.',
    zh: '该背景不在列表中。',
    pt: 'Este fundo não está na lista.',
  },
  enhanceTooLarge: {
    code: 40073,
    en: 'The image is too large to enhance: its longest side may be at most {{max}} px.',
    zh: '图片过大，无法增强：最长边不得超过 {{max}} 像素。',
    pt: 'A imagem é demasiado grande para melhorar: o lado maior pode ter no máximo {{max}} px.',
  },
  expandCanvasRequired: {
    code: 40074,
    en: 'Choose a ratio or a canvas to expand the image to.',
    zh: '请选择扩图的比例或画布。',
    pt: 'Escolha uma proporção ou uma tela para expandir a imagem.',
  },
  expandCanvasInvalid: {
    code: 40075,
    en: 'The image does not fit on this canvas; the canvas must hold the whole image.',
    zh: '图片放不进此画布；画布必须容纳整张图片。',
    pt: 'A imagem não cabe nesta tela; a tela tem de conter a imagem inteira.',
  },
  noSubjectFound: {
    code: 40076,
    en: 'No product was found in the image.',
    zh: '图片中未找到商品。',
    pt: 'Não foi encontrado nenhum produto na imagem.',
  },
  imageToolUnavailable: {
    code: 50020,
    en: 'This tool is not available on this server.',
    zh: '此服务器上无法使用该工具。',
    pt: 'Esta ferramenta não está disponível neste servidor.',
  },
  generationFailed: { code: 50001, en: 'Generation failed', zh: '生成失败', pt: 'Falha na geração' },
  taskCancelled: { code: 50002, en: 'The task was cancelled.', zh: '任务已取消。', pt: 'A tarefa foi cancelada.' },
  taskInterrupted: {
    code: 50003,
    en: 'The task was interrupted too many times; your credits have been returned.',
    zh: '任务多次中断，积分已退还。',
    pt: 'A tarefa foi interrompida demasiadas vezes; os seus créditos foram devolvidos.',
  },
  taskTimedOut: {
    code: 50004,
    en: 'The task took too long and was stopped; your credits have been returned.',
    zh: '任务耗时过长，已停止，积分已退还。',
    pt: 'A tarefa demorou demasiado e foi parada; os seus créditos foram devolvidos.',
  },
  scriptWriterFailed: {
    code: 50010,
    en: 'The AI script writer is not available right now. Please try again later, or use your own script.',
    zh: 'AI 脚本服务暂时不可用。请稍后再试，或使用自己的脚本。',
    pt: 'O gerador de guiões com IA não está disponível neste momento. Tente novamente mais tarde ou use o seu próprio guião.',
  },
  voiceFailed: {
    code: 50011,
    en: 'The voice-over service is not available right now. Please try again later.',
    zh: '配音服务暂时不可用，请稍后再试。',
    pt: 'O serviço de locução não está disponível neste momento. Tente novamente mais tarde.',
  },
  emptyPrompt: { code: 40080, en: 'Please enter a prompt.', zh: '请输入提示词。', pt: 'Introduza um prompt.' },
  sourceImageRequired: { code: 40081, en: 'Please upload an image.', zh: '请上传一张图片。', pt: 'Carregue uma imagem.' },
  imageRefInvalid: {
    code: 40082,
    en: 'Please give one picture: one of your files or a link.',
    zh: '请提供一张图片：您的文件或一个链接。',
    pt: 'Indique uma imagem: um dos seus ficheiros ou uma ligação.',
  },
  tryOnModelRequired: { code: 40083, en: 'Please choose a model.', zh: '请选择模特。', pt: 'Escolha um modelo.' },
  tryOnTopRequired: {
    code: 40084,
    en: 'Please add the clothes to try on: a top or a one-piece.',
    zh: '请添加要试穿的服装：上衣或连体装。',
    pt: 'Adicione a roupa a experimentar: uma parte de cima ou uma peça única.',
  },
  tryOnBottomRequired: {
    code: 40085,
    en: 'Please add the clothes to try on: a bottom.',
    zh: '请添加要试穿的服装：下装。',
    pt: 'Adicione a roupa a experimentar: uma parte de baixo.',
  },
  inputNotImage: {
    code: 40086,
    en: 'The picture could not be used: it must be a JPG, PNG or WEBP image that opens.',
    zh: '无法使用该图片：必须是可以打开的 JPG、PNG 或 WEBP 图片。',
    pt: 'Não foi possível usar a imagem: deve ser uma imagem JPG, PNG ou WEBP que abra.',
  },
  capabilityUnavailable: {
    code: 50030,
    en: 'This tool is not available on this server yet. Your credits were not used.',
    zh: '此服务器暂不提供该工具，您的积分未被使用。',
    pt: 'Esta ferramenta ainda não está disponível neste servidor. Os seus créditos não foram usados.',
  },
  providerFailed: {
    code: 50031,
    en: 'The generation service could not finish this request. Please try again later.',
    zh: '生成服务未能完成此请求，请稍后再试。',
    pt: 'O serviço de geração não conseguiu concluir este pedido. Tente novamente mais tarde.',
  },
  providerBusy: {
    code: 50032,
    en: 'The generation service is busy right now. Please try again in a few minutes.',
    zh: '生成服务当前繁忙，请几分钟后再试。',
    pt: 'O serviço de geração está ocupado neste momento. Tente novamente dentro de alguns minutos.',
  },
  providerTimedOut: {
    code: 50033,
    en: 'The generation service took too long to answer. Please try again later.',
    zh: '生成服务响应超时，请稍后再试。',
    pt: 'O serviço de geração demorou demasiado a responder. Tente novamente mais tarde.',
  },
  providerRejected: {
    code: 50034,
    en: 'The generation service refused this request. Please change the prompt or pictures and try again.',
    zh: '生成服务拒绝了此请求，请修改提示词或图片后重试。',
    pt: 'O serviço de geração recusou este pedido. Altere o prompt ou as imagens e tente novamente.',
  },
  taskNotCancellable: {
    code: 40900,
    en: 'This task has already finished.',
    zh: '该任务已结束。',
    pt: 'Esta tarefa já terminou.',
  },
  serviceUnavailable: {
    code: 503,
    en: 'The service is briefly unavailable. Please try again in a moment.',
    zh: '服务暂时不可用，请稍后再试。',
    pt: 'O serviço está momentaneamente indisponível. Tente novamente dentro de instantes.',
  },
  storageFull: {
    code: 507,
    en: 'There is no room to store files right now. Please try again later.',
    zh: '暂时没有空间存储文件，请稍后再试。',
    pt: 'De momento não há espaço para guardar ficheiros. Tente novamente mais tarde.',
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
