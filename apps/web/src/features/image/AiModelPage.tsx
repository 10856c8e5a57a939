export const AiModelPage = () => null;
