// What a stylesheet import becomes under Jest (jest.config.js moduleNameMapper): nothing.
export {};
