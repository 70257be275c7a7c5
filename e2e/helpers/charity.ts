/** The charity the e2e stack names (CHARITY_NAME in playwright.config.ts), so Overview offers a donation. */
export const E2E_CHARITY = 'Kringle Kids Foundation';
