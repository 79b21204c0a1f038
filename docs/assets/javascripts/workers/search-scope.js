/*
 * The PAS site's search worker: mkdocs-material's own worker, told to search one language only and
 * to cut Chinese queries into the words the index holds. docs/hooks/search_scope.py points every
 * page here with ?scope=<the page's language folder, "" for English>&others=<the other languages'
 * folders>&worker=<Material's worker file, beside this one>.
 *
 * 1. Language. The site has one index for both languages (mkdocs-static-i18n stacks them). On the
 *    setup message, before Material's worker reads it, the entries outside the page's language are
 *    dropped, so an English query never lists Chinese pages and the other way round.
 * 2. Chinese queries. At build time the search plugin cuts Chinese text into words with jieba and
 *    puts U+200B between them; lunr then holds words such as 休眠 and 一致性. The browser has no
 *    jieba, and Material's experimental query segmenter never tries a word that ends the query
 *    (可休眠 became the single unknown term 可休眠*, which found nothing). Here a query's Chinese runs
 *    are cut with the index's own vocabulary instead: the words of the pages in scope and how often
 *    each occurs, the most probable cut winning (jieba's rule, with the site as its dictionary).
 *    Words lunr's Chinese stop-word filter drops from the index (可, 的 ...) are dropped from the
 *    query too, and Material's own segmenter is switched off, as it would cut the words again.
 * 3. English queries. A query word is searched by its stem when the stem begins it (see stemmed).
 */
"use strict"

const params = new URL(self.location.href).searchParams
const scope = params.get("scope") || ""
const others = (params.get("others") || "").split(",").filter(folder => folder && folder !== scope)
const worker = params.get("worker") || ""

const SETUP = 0  // mkdocs-material's SearchMessageType.SETUP
const QUERY = 2  // SearchMessageType.QUERY
const HAN = /\p{sc=Han}+/gu
const LONGEST = 8  // no word of the index is longer; a bound on the cut's search

const vocabulary = new Map()  // word -> occurrences in the pages in scope
let occurrences = 0

function inScope(location) {
  return scope ? location.startsWith(scope) : !others.some(folder => location.startsWith(folder))
}

function learn(text, separator) {
  for (const token of String(text || "").split(separator))
    for (const [word] of token.matchAll(HAN))
      if (word.length <= LONGEST) {
        vocabulary.set(word, (vocabulary.get(word) || 0) + 1)
        occurrences += 1
      }
}

/* The cut of a run of Chinese characters with the highest product of word probabilities; a
   character the index never holds alone counts as a rare word of its own. */
function cut(run) {
  const unknown = Math.log(0.1 / (occurrences + 1))
  const best = [{score: 0, words: []}]
  for (let end = 1; end <= run.length; end++) {
    best[end] = {score: -Infinity, words: []}
    for (let start = Math.max(0, end - LONGEST); start < end; start++) {
      const word = run.slice(start, end)
      const seen = vocabulary.get(word)
      if (!seen && word.length > 1)
        continue
      const score = best[start].score + (seen ? Math.log(seen / occurrences) : unknown)
      if (score > best[end].score)
        best[end] = {score, words: [...best[start].words, word]}
    }
  }
  return best[run.length].words
}

function isStopWord(word) {
  const filter = self.lunr && self.lunr.zh && self.lunr.zh.stopWordFilter
  return Boolean(filter) && filter(new self.lunr.Token(word)) === undefined
}

/* Material leaves lunr's English stemmer out of the index so that every query word can be a prefix
   (`valid` finds `validate`); a word is therefore only found by the words it begins. A query word
   is replaced by its stem when the stem begins it, so that `validate` (stem `valid`) also finds
   "Validating manifests" and `plugins` finds "plugin". */
function stemmed(word) {
  const stemmer = self.lunr && self.lunr.stemmer
  if (!stemmer || !/^[a-z]+$/i.test(word))
    return word
  const stem = String(stemmer(new self.lunr.Token(word.toLowerCase())))
  return stem.length >= 3 && word.toLowerCase().startsWith(stem) ? stem : word
}

function segmented(query) {
  return query.replace(/\b[a-z]+\b(?![:\w])/gi, stemmed).replace(HAN, run => {
    const words = cut(run)
    const kept = words.filter(word => !isStopWord(word))
    return (kept.length ? kept : words).join(" ")
  })
}

/* Registered before Material's worker, so that it sees (and may change) each message first. */
addEventListener("message", event => {
  const message = event.data
  if (message && message.type === SETUP) {
    const separator = new RegExp(message.data.config.separator)
    message.data.docs = message.data.docs.filter(doc => inScope(doc.location))
    for (const doc of message.data.docs) {
      learn(doc.title, separator)
      learn(doc.text, separator)
    }
  } else if (message && message.type === QUERY && typeof message.data === "string") {
    message.data = segmented(message.data)
  }
})

if (/^search\.[0-9a-f]+\.min\.js$/.test(worker))
  importScripts(worker)

/* Material cuts each Chinese run of the query again by asking `word in index.invertedIndex`; lunr
   itself only ever reads that object by key. Answering "no" to `in` leaves the words cut above. */
if (self.lunr && self.lunr.Builder) {
  const build = self.lunr.Builder.prototype.build
  self.lunr.Builder.prototype.build = function () {
    const index = build.call(this)
    index.invertedIndex = new Proxy(index.invertedIndex, {has: () => false})
    return index
  }
}
