/**
 * Alt text of a picture as a reader should see it. Older Word versions stored the picture's
 * source path in the description (`C:\Users\…\Content.Word\photo.jpg`); only the file name is
 * kept from such a path. A picture with no description gets the fallback, so its placeholder
 * still shows that a picture was there.
 */
const SOURCE_PATH = /^(?:[A-Za-z]:[\\/]|\\\\|\/|file:)[^\n]*[\\/]([^\\/\n]+\.(?:png|jpe?g|gif|bmp|tiff?|emf|wmf|svg|webp))$/i;

export function altText(description: string | null | undefined, fallback: string): string {
  const text = description?.trim() ?? '';
  if (text === '') return fallback;
  return SOURCE_PATH.exec(text)?.[1] ?? text;
}
