/* "a" or "an" before a word, for messages that name a kind or a type
 * ("an int", "a string"). By the first letter, which fits every name serval
 * prints (kind, tag and Godot type names). */
#ifndef SERVAL_CORE_ARTICLE_H
#define SERVAL_CORE_ARTICLE_H

static inline const char *sv__core_article(const char *word)
{
    char c = word ? word[0] : 0;
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    return (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u') ? "an" : "a";
}

#endif
