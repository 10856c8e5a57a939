// Our own illustrations: the preset people of try-on (/image/getHumanInfo), the apparel templates
// (/image/getClothInfo) and the product-demo cards (/mis/product-demo). Simple stylised drawings made here with
// SVG, honest about being illustrations (no photo of a real person), drawn once per process and kept in memory.
import type { Locale, ProductCategory } from '@reelsmith/contract';
import sharp from 'sharp';
import type { z } from 'zod';

type Gender = 'female' | 'male';
type Garment = 'top' | 'bottom' | 'onePiece';

interface Names {
  en: string;
  zh: string;
  pt: string;
}

export const HUMAN_MODELS: { modelId: string; gender: Gender; name: Names; skin: string; hair: string; base: string }[] = [
  {
    modelId: 'ava',
    gender: 'female',
    name: { en: 'Ava (illustration)', zh: 'Ava（插画）', pt: 'Ava (ilustração)' },
    skin: '#f1c7a5',
    hair: '#3b2a20',
    base: '#d9dde3',
  },
  {
    modelId: 'mei',
    gender: 'female',
    name: { en: 'Mei (illustration)', zh: '美（插画）', pt: 'Mei (ilustração)' },
    skin: '#e8b98f',
    hair: '#121212',
    base: '#e3ddd6',
  },
  {
    modelId: 'leo',
    gender: 'male',
    name: { en: 'Leo (illustration)', zh: 'Leo（插画）', pt: 'Leo (ilustração)' },
    skin: '#c68c62',
    hair: '#24170f',
    base: '#d6e0dc',
  },
  {
    modelId: 'tom',
    gender: 'male',
    name: { en: 'Tom (illustration)', zh: 'Tom（插画）', pt: 'Tom (ilustração)' },
    skin: '#f3d0b5',
    hair: '#8a5a2b',
    base: '#dcdbe6',
  },
];

export const CLOTH_TEMPLATES: { templateId: string; garmentType: Garment; name: Names; colour: string }[] = [
  { templateId: 'tee-green', garmentType: 'top', name: { en: 'Green T-shirt', zh: '绿色 T 恤', pt: 'Camiseta verde' }, colour: '#1adb74' },
  {
    templateId: 'tee-navy',
    garmentType: 'top',
    name: { en: 'Navy T-shirt', zh: '藏青 T 恤', pt: 'Camiseta azul-marinho' },
    colour: '#22355e',
  },
  {
    templateId: 'trousers-khaki',
    garmentType: 'bottom',
    name: { en: 'Khaki trousers', zh: '卡其色长裤', pt: 'Calça cáqui' },
    colour: '#b59b6b',
  },
  {
    templateId: 'trousers-black',
    garmentType: 'bottom',
    name: { en: 'Black trousers', zh: '黑色长裤', pt: 'Calça preta' },
    colour: '#26272b',
  },
  {
    templateId: 'dress-red',
    garmentType: 'onePiece',
    name: { en: 'Red dress', zh: '红色连衣裙', pt: 'Vestido vermelho' },
    colour: '#c8323c',
  },
  {
    templateId: 'dress-sky',
    garmentType: 'onePiece',
    name: { en: 'Sky-blue dress', zh: '天蓝色连衣裙', pt: 'Vestido azul-céu' },
    colour: '#6fb3e8',
  },
];

/** The twelve categories of spec "Entities", with sample prompts we wrote, and the colours of their cards. */
export const PRODUCT_DEMOS: { category: z.infer<typeof ProductCategory>; colour: string; name: Names; prompt: Names }[] = [
  {
    category: 'lipstick',
    colour: '#b8233a',
    name: { en: 'Lipstick', zh: '口红', pt: 'Batom' },
    prompt: {
      en: 'A matte red lipstick standing on white marble, soft morning light, rose petals around it',
      zh: '一支哑光红色口红立在白色大理石上，柔和的晨光，周围散落玫瑰花瓣',
      pt: 'Um batom vermelho fosco em pé sobre mármore branco, luz suave da manhã, pétalas de rosa ao redor',
    },
  },
  {
    category: 'earphone',
    colour: '#2d3a4a',
    name: { en: 'Earphones', zh: '耳机', pt: 'Fones de ouvido' },
    prompt: {
      en: 'Wireless earbuds in an open charging case on a dark desk, blue rim light, close-up',
      zh: '无线耳机放在打开的充电盒中，深色桌面，蓝色轮廓光，特写',
      pt: 'Fones de ouvido sem fio em um estojo de carregamento aberto sobre uma mesa escura, luz azul de contorno, close-up',
    },
  },
  {
    category: 'shampoo',
    colour: '#3f9c8f',
    name: { en: 'Shampoo', zh: '洗发水', pt: 'Xampu' },
    prompt: {
      en: 'A shampoo bottle splashed with clear water, fresh green leaves, bright bathroom light',
      zh: '洗发水瓶溅起清澈水花，新鲜绿叶，明亮的浴室光线',
      pt: 'Um frasco de xampu com respingos de água cristalina, folhas verdes frescas, luz clara de banheiro',
    },
  },
  {
    category: 'perfume',
    colour: '#c9a45c',
    name: { en: 'Perfume', zh: '香水', pt: 'Perfume' },
    prompt: {
      en: 'An elegant glass perfume bottle on silk, golden hour glow, soft bokeh',
      zh: '优雅的玻璃香水瓶放在丝绸上，金色夕阳光晕，柔和虚化背景',
      pt: 'Um elegante frasco de perfume de vidro sobre seda, brilho da hora dourada, bokeh suave',
    },
  },
  {
    category: 'backpack',
    colour: '#4b5d3a',
    name: { en: 'Backpack', zh: '双肩包', pt: 'Mochila' },
    prompt: {
      en: 'A waterproof hiking backpack on a rock at a mountain summit, sunrise, adventurous mood',
      zh: '防水登山背包放在山顶岩石上，日出，充满冒险氛围',
      pt: 'Uma mochila de trilha impermeável sobre uma rocha no topo de uma montanha, nascer do sol, clima de aventura',
    },
  },
  {
    category: 'chineseLiquor',
    colour: '#8c1d18',
    name: { en: 'Chinese liquor', zh: '白酒', pt: 'Licor chinês' },
    prompt: {
      en: 'A ceramic baijiu bottle with a small cup, red festive background, warm lantern light',
      zh: '陶瓷白酒瓶配小酒杯，喜庆红色背景，温暖的灯笼光',
      pt: 'Uma garrafa de baijiu de cerâmica com um copinho, fundo vermelho festivo, luz quente de lanternas',
    },
  },
  {
    category: 'eyeshadowPalette',
    colour: '#9b5c8f',
    name: { en: 'Eyeshadow palette', zh: '眼影盘', pt: 'Paleta de sombras' },
    prompt: {
      en: 'An open eyeshadow palette with shimmering shades, pastel backdrop, top-down view',
      zh: '打开的眼影盘，闪耀的色彩，粉彩背景，俯视角度',
      pt: 'Uma paleta de sombras aberta com tons cintilantes, fundo pastel, vista de cima',
    },
  },
  {
    category: 'waterCup',
    colour: '#3a7bd5',
    name: { en: 'Water cup', zh: '水杯', pt: 'Garrafa de água' },
    prompt: {
      en: 'A stainless steel water bottle covered in cold droplets, gym bag beside it, clean daylight',
      zh: '布满冰凉水珠的不锈钢水杯，旁边放着健身包，明亮的自然光',
      pt: 'Uma garrafa de água de aço inoxidável coberta de gotas geladas, bolsa de academia ao lado, luz do dia limpa',
    },
  },
  {
    category: 'sofa',
    colour: '#7a6a58',
    name: { en: 'Sofa', zh: '沙发', pt: 'Sofá' },
    prompt: {
      en: 'A cosy linen sofa in a sunlit living room, plants and a wool throw, Scandinavian style',
      zh: '阳光充足的客厅里舒适的亚麻沙发，绿植和羊毛毯，北欧风格',
      pt: 'Um sofá de linho aconchegante em uma sala ensolarada, plantas e uma manta de lã, estilo escandinavo',
    },
  },
  {
    category: 'speaker',
    colour: '#222831',
    name: { en: 'Speaker', zh: '音箱', pt: 'Caixa de som' },
    prompt: {
      en: 'A portable speaker on a beach towel at sunset, sound waves in the air, party vibe',
      zh: '日落时沙滩毛巾上的便携音箱，空气中的声波，派对氛围',
      pt: 'Uma caixa de som portátil sobre uma toalha de praia ao pôr do sol, ondas sonoras no ar, clima de festa',
    },
  },
  {
    category: 'sneakers',
    colour: '#e05a2b',
    name: { en: 'Sneakers', zh: '运动鞋', pt: 'Tênis' },
    prompt: {
      en: 'A pair of running sneakers mid-stride on a city street, motion blur, dynamic angle',
      zh: '一双跑鞋在城市街道上迈步，动态模糊，动感视角',
      pt: 'Um par de tênis de corrida em plena passada em uma rua da cidade, desfoque de movimento, ângulo dinâmico',
    },
  },
  {
    category: 'glasses',
    colour: '#5b6770',
    name: { en: 'Glasses', zh: '眼镜', pt: 'Óculos' },
    prompt: {
      en: 'Round glasses resting on an open book, coffee cup nearby, warm library light',
      zh: '圆框眼镜放在打开的书上，旁边一杯咖啡，温暖的图书馆灯光',
      pt: 'Óculos redondos apoiados em um livro aberto, xícara de café ao lado, luz quente de biblioteca',
    },
  },
];

const png = (svg: string) => sharp(Buffer.from(svg)).png().toBuffer();

/** A standing figure, front view: head, hair, neck, a plain grey body suit, arms and legs. */
function figureSvg(model: (typeof HUMAN_MODELS)[number]): string {
  const long = model.gender === 'female';
  const shoulders = long ? 150 : 175;
  const hair = long
    ? `<path d="M314 170 q70 -110 140 0 v150 h-30 v-110 h-80 v110 h-30 z" fill="${model.hair}"/>`
    : `<path d="M318 170 q66 -90 132 0 v20 h-132 z" fill="${model.hair}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="768" height="1024">
<rect width="100%" height="100%" fill="${model.base}"/>
<rect x="0" y="940" width="768" height="84" fill="#00000014"/>
<rect x="364" y="250" width="40" height="50" fill="${model.skin}"/>
<circle cx="384" cy="200" r="66" fill="${model.skin}"/>${hair}
<rect x="${384 - shoulders / 2}" y="290" width="${shoulders}" height="300" rx="40" fill="#9aa1ab"/>
<rect x="${384 - shoulders / 2 - 38}" y="300" width="34" height="280" rx="17" fill="${model.skin}"/>
<rect x="${384 + shoulders / 2 + 4}" y="300" width="34" height="280" rx="17" fill="${model.skin}"/>
<rect x="${384 - 62}" y="580" width="56" height="360" rx="24" fill="#7d848e"/>
<rect x="${384 + 6}" y="580" width="56" height="360" rx="24" fill="#7d848e"/>
</svg>`;
}

/** A garment laid flat on white, as the clothing upload rules ask (spec "Validation rules"). */
function garmentSvg(template: (typeof CLOTH_TEMPLATES)[number]): string {
  const shapes: Record<Garment, string> = {
    top: 'M254 170 l80 -40 q50 40 100 0 l80 40 l90 110 l-70 50 l-50 -55 v330 h-200 v-330 l-50 55 l-70 -50 z',
    bottom: 'M264 140 h240 l30 560 h-110 l-44 -420 l-44 420 h-110 z',
    onePiece: 'M314 120 h140 l-10 120 l120 440 h-360 l120 -440 z',
  };
  return `<svg xmlns="http://www.w3.org/2000/svg" width="768" height="768">
<rect width="100%" height="100%" fill="#ffffff"/>
<path d="${shapes[template.garmentType]}" fill="${template.colour}" stroke="#00000033" stroke-width="4"/>
</svg>`;
}

/** A demo card: the category's colour, a spotlight and a podium where a product would stand. */
function demoSvg(demo: (typeof PRODUCT_DEMOS)[number]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="768" height="1024">
<defs><radialGradient id="l" cx="0.5" cy="0.35" r="0.6"><stop offset="0" stop-color="#ffffff" stop-opacity="0.55"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient></defs>
<rect width="100%" height="100%" fill="${demo.colour}"/><rect width="100%" height="100%" fill="url(#l)"/>
<ellipse cx="384" cy="800" rx="260" ry="60" fill="#00000040"/><rect x="124" y="740" width="520" height="60" fill="#ffffff30"/>
<rect x="314" y="380" width="140" height="360" rx="30" fill="#ffffffcc"/>
</svg>`;
}

const cache = new Map<string, Promise<Buffer>>();
const memo = (key: string, make: () => Promise<Buffer>) => {
  let found = cache.get(key);
  if (!found) {
    found = make();
    cache.set(key, found);
    // A failed drawing is tried again next time rather than cached.
    found.catch(() => cache.delete(key));
  }
  return found;
};

export type PresetKind = 'model' | 'garment' | 'demo';

const DRAWINGS: Record<PresetKind, (id: string) => string | undefined> = {
  model: (id) => {
    const model = HUMAN_MODELS.find((m) => m.modelId === id);
    return model && figureSvg(model);
  },
  garment: (id) => {
    const template = CLOTH_TEMPLATES.find((t) => t.templateId === id);
    return template && garmentSvg(template);
  },
  demo: (id) => {
    const demo = PRODUCT_DEMOS.find((d) => d.category === id);
    return demo && demoSvg(demo);
  },
};

/** A preset picture by kind and id, or undefined when there is none of that id. */
export function presetPicture(kind: PresetKind, id: string): { render(): Promise<Buffer> } | undefined {
  const svg = DRAWINGS[kind](id);
  return svg ? { render: () => memo(`${kind}/${id}`, () => png(svg)) } : undefined;
}

export const localised = (names: Names, locale: Locale) => names[locale];
