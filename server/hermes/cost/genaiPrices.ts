// The price library on its own: scripts/build.mjs bundles this file apart (dist/genaiPrices.js, half
// a megabyte of price data) and prices.ts requires it only when a lookup is not among the answers
// remembered on disk (priceAnswers.ts), so most runs never load or even parse it.
export * from '@pydantic/genai-prices';
