export const TextToImagePage = () => null;
