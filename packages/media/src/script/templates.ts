import type { Language } from './language.js';

/**
 * The local writer's copy, per language: each angle is a different way into the same ad (a question, a claim,
 * a story…), so variants of one product differ from the first word. `{name}` is the product's short name.
 * Lines claim nothing the product data does not say (no ratings, no prices, no stock levels).
 */
export interface Angle {
  angle: string;
  hook: string;
  proof: string;
  callToAction: string;
}

export interface Templates {
  angles: Angle[];
  /** Benefits any product has, used after the description's own facts run out (or when it is in another language). */
  benefits: string[];
}

export const TEMPLATES: Record<Language, Templates> = {
  en: {
    angles: [
      {
        angle: 'question',
        hook: 'Tired of settling for less? Meet {name}.',
        proof: 'People who try it do not want to go back.',
        callToAction: 'Tap the link and get yours today.',
      },
      {
        angle: 'claim',
        hook: 'This is {name}, and it changes the game.',
        proof: 'More and more people are making the switch.',
        callToAction: 'Order now and see the difference.',
      },
      {
        angle: 'story',
        hook: 'I did not expect much, then I tried {name}.',
        proof: 'Now I use it every single day.',
        callToAction: 'See it for yourself, the link is below.',
      },
      {
        angle: 'why',
        hook: 'Why is everyone choosing {name}?',
        proof: 'Try it once and you will feel the difference.',
        callToAction: 'Tap below to find out more.',
      },
      {
        angle: 'stop',
        hook: 'Stop scrolling: {name} is here.',
        proof: 'Quality you can see and feel.',
        callToAction: 'Get yours now, it is one tap away.',
      },
      {
        angle: 'reasons',
        hook: 'Here is why you will love {name}.',
        proof: 'Every detail is there for a reason.',
        callToAction: 'Do not wait, order yours today.',
      },
    ],
    benefits: [
      'It is made to fit right into your daily routine.',
      'The design looks great and feels even better.',
      'It is simple to use from the very first moment.',
      'Built with quality materials that are made to last.',
      'A thoughtful gift for someone you care about.',
      'It works just as well at home as on the go.',
      'Every part is designed with you in mind.',
      'A small change that makes a big difference in your day.',
      'You will wonder how you ever managed without it.',
      'It saves you time, so you can focus on what matters.',
      'Easy to clean, easy to carry, easy to love.',
    ],
  },
  zh: {
    angles: [
      {
        angle: 'question',
        hook: '还在为选不到好物发愁？试试{name}。',
        proof: '用过的人都说回不去了。',
        callToAction: '点击链接，马上带回家。',
      },
      {
        angle: 'claim',
        hook: '这就是{name}，用过就知道有多好。',
        proof: '越来越多的人已经换成了它。',
        callToAction: '现在下单，亲自感受不同。',
      },
      {
        angle: 'story',
        hook: '本来没抱什么期待，直到我用了{name}。',
        proof: '现在我每天都离不开它。',
        callToAction: '亲自试试，链接就在下方。',
      },
      { angle: 'why', hook: '为什么大家都在选{name}？', proof: '试一次，你就能感受到不同。', callToAction: '点击下方链接了解更多。' },
      { angle: 'stop', hook: '先别划走！{name}来了。', proof: '好品质，看得见也摸得着。', callToAction: '一键下单，马上拥有。' },
      {
        angle: 'reasons',
        hook: '你会爱上{name}的理由，都在这里。',
        proof: '每一个细节都有它的道理。',
        callToAction: '心动不如行动，快来选购吧。',
      },
    ],
    benefits: [
      '外观设计精致大方，放在哪里都好看。',
      '操作简单直观，第一次用就能轻松上手。',
      '用料扎实，做工细致，经得起每天使用。',
      '无论在家还是出门，都能派上用场。',
      '每一个细节，都为你的使用体验着想。',
      '自用送礼都合适，心意满满。',
      '一个小小的改变，让每天的生活更轻松。',
      '融入你的日常，省心省力又省时间。',
      '品质看得见，用起来更放心。',
      '颜值和实用兼备，越用越喜欢。',
      '清洁方便，携带轻松，让人爱不释手。',
    ],
  },
  pt: {
    angles: [
      {
        angle: 'question',
        hook: 'Cansado de se contentar com pouco? Conheça {name}.',
        proof: 'Quem experimenta não quer outra coisa.',
        callToAction: 'Toque no link e garanta o seu hoje.',
      },
      {
        angle: 'claim',
        hook: 'Este é {name}, e ele muda tudo.',
        proof: 'Cada vez mais pessoas estão fazendo a troca.',
        callToAction: 'Peça agora e sinta a diferença.',
      },
      {
        angle: 'story',
        hook: 'Eu não esperava muito, até experimentar {name}.',
        proof: 'Agora eu uso todos os dias.',
        callToAction: 'Veja você mesmo, o link está abaixo.',
      },
      {
        angle: 'why',
        hook: 'Por que todo mundo está escolhendo {name}?',
        proof: 'Experimente uma vez e sinta a diferença.',
        callToAction: 'Toque abaixo para saber mais.',
      },
      {
        angle: 'stop',
        hook: 'Pare de rolar a tela: {name} chegou.',
        proof: 'Qualidade que você vê e sente.',
        callToAction: 'Garanta o seu agora, com um toque.',
      },
      {
        angle: 'reasons',
        hook: 'Veja por que você vai amar {name}.',
        proof: 'Cada detalhe está ali por um motivo.',
        callToAction: 'Não espere mais, peça já o seu.',
      },
    ],
    benefits: [
      'Feito para combinar com a sua rotina.',
      'Um design bonito que agrada de verdade.',
      'Fácil de usar desde o primeiro momento.',
      'Materiais de qualidade, feitos para durar.',
      'Um ótimo presente para quem você gosta.',
      'Funciona bem em casa e também fora dela.',
      'Pensado nos mínimos detalhes para você.',
      'Uma pequena mudança que faz grande diferença no seu dia.',
      'Você vai se perguntar como vivia sem ele.',
      'Economiza tempo para você focar no que importa.',
      'Fácil de limpar, fácil de levar, fácil de amar.',
    ],
  },
};
