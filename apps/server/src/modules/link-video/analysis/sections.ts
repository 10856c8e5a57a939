/**
 * The headings of a page's sections, not of a product (class 6 of "Link analysis on real shops", decision "Product
 * names from agreement"): a service page's first heading is often "Our services", "Contact us" or "Reviews", and a
 * title is often "Reviews | Shop". In English, Chinese (simplified and traditional) and Portuguese, which we serve,
 * and Spanish, French, German, Italian, Japanese and Korean, whose shops were measured. Whole headings only: "Contact
 * Lens Case" or "Home Office Chair" is a product.
 */

/** "Our", "nossos", "我们的"…: the same section heading with or without it. */
const POSSESSIVE =
  /^(?:our|nossos|nossas|nosso|nossa|nuestros|nuestras|nuestro|nuestra|nos|notre|nosotros|unsere|unser|i nostri|le nostre|il nostro|我们的|我們的)\s*/u;

const HEADINGS = [
  // en
  'services|service|what we do|who we are|why choose us|how it works|products|product|contact|contact us|get in touch|' +
    'about|about us|reviews|customer reviews|ratings|testimonials|welcome|home|homepage|gallery|photos|faq|faqs|' +
    'frequently asked questions|book now|booking|book an appointment|appointments|team|pricing|prices|price list|' +
    'location|locations|find us|opening hours|hours|description|product description|details|product details|' +
    'specifications|specs|features|overview|related products|you may also like|shop|store|menu|blog|news|portfolio|' +
    'projects|categories|collection|collections|new arrivals|best sellers|cart|shopping cart|checkout|login|sign in|' +
    'account|my account|search|search results|page not found|not found|thank you',
  // pt
  'serviços|serviço|produtos|produto|contato|contacto|contatos|contactos|fale conosco|fale connosco|entre em contato|' +
    'sobre|sobre nós|quem somos|avaliações|depoimentos|opiniões|bem-vindo|bem-vinda|bem-vindos|início|página inicial|' +
    'galeria|fotos|perguntas frequentes|agende|agende já|agendamento|agendamentos|equipe|equipa|preços|' +
    'tabela de preços|localização|onde estamos|horário|horários|horário de funcionamento|descrição|' +
    'descrição do produto|detalhes|detalhes do produto|especificações|características|visão geral|' +
    'produtos relacionados|você também pode gostar|loja|cardápio|novidades|categorias|coleção|coleções|promoções|' +
    'carrinho|entrar|minha conta|resultados da pesquisa|página não encontrada',
  // es
  'servicios|productos|contacto|contáctenos|contáctanos|sobre nosotros|quiénes somos|opiniones|reseñas|testimonios|' +
    'bienvenido|bienvenidos|inicio|galería|preguntas frecuentes|reservar|reservas|equipo|precios|ubicación|horario|' +
    'horarios|descripción|detalles|especificaciones|productos relacionados|tienda|carrito',
  // fr
  'produits|contactez-nous|à propos|qui sommes-nous|avis|avis clients|témoignages|bienvenue|accueil|galerie|tarifs|' +
    'équipe|caractéristiques|produits similaires|boutique|panier',
  // de
  'leistungen|dienstleistungen|produkte|kontakt|über uns|bewertungen|kundenbewertungen|willkommen|startseite|' +
    'häufige fragen|preise|beschreibung|produktbeschreibung|technische daten|ähnliche produkte|warenkorb',
  // it
  'servizi|prodotti|contatti|contattaci|chi siamo|recensioni|benvenuto|benvenuti|galleria|domande frequenti|prezzi|' +
    'descrizione|dettagli|prodotti correlati|carrello',
  // zh-CN, zh-TW
  '服务|服务项目|产品|产品中心|联系我们|关于我们|评价|用户评价|商品评价|评论|欢迎|欢迎光临|首页|相册|常见问题|预约|在线预约|团队|' +
    '价格|价目表|地址|营业时间|商品详情|产品详情|产品介绍|商品描述|规格参数|相关产品|猜你喜欢|为你推荐|购物车|' +
    '服務|服務項目|產品|聯絡我們|聯繫我們|關於我們|評價|評論|歡迎|首頁|常見問題|預約|價格|商品詳情|產品介紹|相關產品|購物車',
  // ja, ko
  'サービス|お問い合わせ|会社概要|レビュー|ホーム|商品詳細|よくある質問|서비스|문의하기|회사소개|리뷰|상품평|홈|상품상세',
];

const SECTION_HEADINGS = new Set(HEADINGS.flatMap((list) => list.split('|')));

/** Whether a heading or title segment is a section of the page ("Our Services:", "CONTACT US", "联系我们") rather than a name. */
export function isSectionHeading(text: string): boolean {
  // A count beside it ("Reviews (128)") says how many, not what.
  const key = text
    .toLowerCase()
    .replace(/\d+/g, ' ')
    .replace(/[\p{P}\p{S}]+/gu, (mark) => (mark === '-' ? mark : ' '))
    .replace(/\s+/g, ' ')
    .trim();
  return SECTION_HEADINGS.has(key) || SECTION_HEADINGS.has(key.replace(POSSESSIVE, ''));
}
