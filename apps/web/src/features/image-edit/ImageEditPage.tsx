export const ImageEditPage = () => null;
