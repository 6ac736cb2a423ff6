export const testing = true;
