import type { Language } from './language.js';

/**
 * The local writer's own words, per language (decision "Scripts from page facts"). Every line that says
 * something about the product names its source with a placeholder: `{name}` and `{brand}` come from the page's
 * name and brand, `{price}`, `{listPrice}` and `{discount}` from its offer, `{rating}` and `{reviews}` from its
 * review summary, `{materials}` from the materials it states. A line whose placeholders the page cannot fill is not said, so no script claims a price,
 * a discount or a rating the page does not state. The rest are questions, invitations and calls to action,
 * which claim nothing.
 *
 * Grammar rules these lines keep (the writer's tests check them):
 * - pt-BR: Brazilian usage (você, "celular" register); the name takes its article where the name tells its gender
 *   (`{theName}`: "Conheça a Camiseta Básica", decision "Portuguese articles"), and no other word agrees with the
 *   product's gender, which the writer cannot know for sure (never "Este é {name}" or "garanta o seu"); "da marca
 *   {brand}" since "marca" is feminine; prices as "de {listPrice} por {price}", the shops' own idiom.
 * - zh: no spaces between Chinese words or before full-width punctuation; full-width punctuation only.
 * - en: complete sentences; "yours" is fine, since English has no gender to agree with.
 */

/** The ways into an ad: each preview of a product takes a different one. */
export type AngleId = 'problem' | 'features' | 'offer' | 'reviews' | 'brand' | 'spotlight' | 'invite';

export interface Angle {
  angle: AngleId;
  /** The first line, what stops the scroll: the first of these whose facts the page has. */
  hooks: string[];
  callToAction: string;
}

export interface Copy {
  /** In the order previews take them; an angle whose hook names a fact the page lacks is skipped. */
  angles: Angle[];
  /** The offer said by the angles that do not open with it: the sale's form when there is a price before it. */
  price: string;
  sale: string;
  discount: string;
  rating: string;
  brand: string;
  /** What the product is made of; in pt without a participle, which would agree with the product's gender. */
  materials: string;
  /** Lines that claim nothing, for a script whose facts run out before the slot is full. */
  fillers: string[];
}

export const COPY: Record<Language, Copy> = {
  en: {
    angles: [
      { angle: 'problem', hooks: ['Still looking for the right one? Meet {name}.'], callToAction: 'Tap the link and get yours today.' },
      {
        angle: 'offer',
        hooks: ['{name}, now {price} instead of {listPrice}.', '{name}, for just {price}.'],
        callToAction: 'Get it for {price} through the link below.',
      },
      {
        angle: 'reviews',
        hooks: ['Rated {rating} out of 5 in {reviews} reviews: this is {name}.'],
        callToAction: 'See the reviews for yourself, the link is below.',
      },
      { angle: 'features', hooks: ['Here is what you get with {name}.'], callToAction: 'Tap the link to order yours.' },
      { angle: 'brand', hooks: ['From {brand}, this is {name}.'], callToAction: 'Order yours through the link below.' },
      {
        angle: 'spotlight',
        hooks: ['Stop scrolling for a second: this is {name}.'],
        callToAction: 'The link is below, go and take a look.',
      },
      { angle: 'invite', hooks: ['Let me show you {name}.'], callToAction: 'Find it through the link below.' },
    ],
    price: 'And it is yours for {price}.',
    sale: 'Now {price}, down from {listPrice}.',
    discount: 'That is {discount}% off.',
    rating: 'Buyers rate it {rating} out of 5, in {reviews} reviews.',
    brand: 'It comes from {brand}.',
    materials: 'It is made of {materials}.',
    fillers: [
      'Take a closer look at {name}.',
      'Picture it in your everyday life.',
      'Have a look at it from every side.',
      'Every detail is on the product page.',
      'Save this video so you can find it again.',
      'Share it with someone who would like it.',
    ],
  },
  zh: {
    angles: [
      { angle: 'problem', hooks: ['还在找真正合适的那一款？看看{name}。'], callToAction: '点击链接，马上下单。' },
      {
        angle: 'offer',
        hooks: ['{name}原价{listPrice}，现在只要{price}。', '{name}，只要{price}。'],
        callToAction: '点击下方链接，{price}带回家。',
      },
      { angle: 'reviews', hooks: ['{reviews}条评价，打出{rating}分，满分5分。这就是{name}。'], callToAction: '评价都在链接里，点开看看。' },
      { angle: 'features', hooks: ['一起来看看{name}的细节。'], callToAction: '点击链接，把它带回家。' },
      { angle: 'brand', hooks: ['这是{brand}的{name}。'], callToAction: '点击下方链接下单。' },
      { angle: 'spotlight', hooks: ['先别划走，这是{name}。'], callToAction: '链接就在下方，快去看看。' },
      { angle: 'invite', hooks: ['带你看看{name}。'], callToAction: '想要的话，点击下方链接。' },
    ],
    price: '现在只要{price}。',
    sale: '原价{listPrice}，现在只要{price}。',
    discount: '直降{discount}%。',
    rating: '买家评分{rating}分，满分5分，共{reviews}条评价。',
    brand: '来自{brand}。',
    materials: '材质：{materials}。',
    fillers: [
      '近距离看看{name}。',
      '想象一下它出现在你的日常里。',
      '从每个角度都看一看。',
      '更多细节都在商品页。',
      '先收藏这条视频，方便再找到。',
      '分享给可能喜欢它的朋友。',
    ],
  },
  pt: {
    angles: [
      { angle: 'problem', hooks: ['Ainda procurando a escolha certa? Conheça {theName}.'], callToAction: 'Toque no link e garanta já.' },
      {
        angle: 'offer',
        hooks: ['{name} de {listPrice} por {price}.', '{name} por apenas {price}.'],
        callToAction: 'Aproveite por {price}, o link está abaixo.',
      },
      {
        angle: 'reviews',
        hooks: ['Nota {rating} de 5 em {reviews} avaliações: conheça {theName}.'],
        callToAction: 'Veja as avaliações, o link está abaixo.',
      },
      { angle: 'features', hooks: ['Veja tudo o que vem com {theName}.'], callToAction: 'Toque no link e peça agora.' },
      { angle: 'brand', hooks: ['Conheça {theName}, da marca {brand}.'], callToAction: 'Peça já pelo link abaixo.' },
      { angle: 'spotlight', hooks: ['Pare de rolar a tela: conheça {theName}.'], callToAction: 'O link está abaixo, confira.' },
      { angle: 'invite', hooks: ['Deixa eu te mostrar {theName}.'], callToAction: 'Gostou? Toque no link abaixo.' },
    ],
    price: 'E sai por {price}.',
    sale: 'De {listPrice} por {price}.',
    discount: 'São {discount}% de desconto.',
    rating: 'Nota {rating} de 5, em {reviews} avaliações.',
    brand: 'É da marca {brand}.',
    materials: 'Material: {materials}.',
    fillers: [
      'Veja {theName} de perto.',
      'Imagine isso no seu dia a dia.',
      'Dê uma olhada de todos os ângulos.',
      'Todos os detalhes estão na página do produto.',
      'Salve este vídeo para encontrar depois.',
      'Compartilhe com quem vai gostar.',
    ],
  },
};
