// Writes the small labelled survey of tests/data/formats/ in every format dpsynth reads, with
// ReadStat's own writer (Debian's libreadstat-dev; R's haven needs some 700 packages). Run by
// hand through make_fixtures.sh, not in CI; the files are committed. README.md says what they
// hold and what the tests expect of them.
#include <readstat.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int kRecords = 40;

struct Record {
  double visits;  // NaN: system missing; -1: the format's user-defined / tagged missing
  double health;  // 1..3, or 9 ("don't know": user-defined missing where the format has it)
  double sex;     // 1, 2
  const char* region;
  double income;
  double seen;  // days since 2020-01-01
};

std::vector<Record> survey() {
  std::vector<Record> out;
  unsigned state = 12345;
  auto next = [&] {
    state = state * 1103515245u + 12345u;
    return (state >> 16) & 0x7FFF;
  };
  const char* regions[] = {"north", "south", "east"};
  for (int i = 0; i < kRecords; ++i) {
    Record r;
    // The first record is "excellent" (3): the levels must come in label order (poor,
    // average, excellent), not in order of appearance nor alphabetically.
    r.health = i == 0 ? 3 : 1 + next() % 3;
    r.sex = 1 + next() % 2;
    r.region = regions[next() % 3];
    r.income = i % 7 == 0 ? 0 : 1000.0 * (10 + next() % 40);
    r.visits = static_cast<double>((4 - r.health) + next() % 3 + (r.sex == 2 ? 1 : 0));
    r.seen = next() % 700;
    out.push_back(r);
  }
  out[5].health = 9;     // don't know
  out[11].visits = -1;   // refused: user-defined or tagged missing
  out[17].visits = NAN;  // system missing
  return out;
}

ssize_t writeBytes(const void* data, size_t len, void* ctx) {
  return static_cast<ssize_t>(fwrite(data, 1, len, static_cast<FILE*>(ctx)));
}

void check(readstat_error_t e, const char* what) {
  if (e != READSTAT_OK) {
    fprintf(stderr, "%s: %s\n", what, readstat_error_message(e));
    exit(1);
  }
}

enum class Kind { sav, zsav, por, dta, sas7bdat, xpt };

void write(Kind kind, const char* path) {
  const bool spss = kind == Kind::sav || kind == Kind::zsav || kind == Kind::por;
  const bool stata = kind == Kind::dta;
  const bool sas = kind == Kind::sas7bdat || kind == Kind::xpt;
  readstat_writer_t* w = readstat_writer_init();
  readstat_set_data_writer(w, writeBytes);
  readstat_writer_set_file_timestamp(w, 946684800);
  readstat_writer_set_file_label(w, "dpsynth test survey");
  if (kind == Kind::zsav) readstat_writer_set_compression(w, READSTAT_COMPRESS_BINARY);
  if (kind == Kind::xpt) readstat_writer_set_file_format_version(w, 8);
  if (stata) readstat_writer_set_file_format_version(w, 118);

  // SAS keeps value labels in a separate catalog: its files here have none.
  readstat_label_set_t* healthLabels = nullptr;
  readstat_label_set_t* sexLabels = nullptr;
  readstat_label_set_t* incomeLabels = nullptr;
  if (!sas) {
    const readstat_type_t t = stata ? READSTAT_TYPE_INT32 : READSTAT_TYPE_DOUBLE;
    healthLabels = readstat_add_label_set(w, t, "healthl");
    sexLabels = readstat_add_label_set(w, t, "sexl");
    incomeLabels = readstat_add_label_set(w, t, "incomel");
    auto label = [&](readstat_label_set_t* s, int v, const char* text) {
      if (stata)
        readstat_label_int32_value(s, v, text);
      else
        readstat_label_double_value(s, v, text);
    };
    label(healthLabels, 1, "poor");
    label(healthLabels, 2, "average");
    label(healthLabels, 3, "excellent");
    label(healthLabels, 9, "don't know");  // a missing code: not a level
    label(sexLabels, 1, "male");
    label(sexLabels, 2, "female");
    label(incomeLabels, 0, "no income");  // one labelled value: income stays numeric
    if (stata) readstat_label_tagged_value(healthLabels, 'a', "refused");
  }

  // SPSS portable files spell names in capitals.
  auto name = [&](const char* lower) {
    std::string n = lower;
    if (kind == Kind::por)
      for (char& c : n) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return n;
  };
  readstat_variable_t* visits =
      readstat_add_variable(w, name("visits").c_str(), READSTAT_TYPE_DOUBLE, 0);
  readstat_variable_set_label(visits, "Doctor visits in the last year");
  readstat_variable_t* health =
      readstat_add_variable(w, name("health").c_str(), READSTAT_TYPE_DOUBLE, 0);
  readstat_variable_set_label(health, "Self-rated health");
  readstat_variable_t* sex = readstat_add_variable(w, name("sex").c_str(), READSTAT_TYPE_DOUBLE, 0);
  readstat_variable_set_label(sex, "Sex");
  readstat_variable_t* region =
      readstat_add_variable(w, name("region").c_str(), READSTAT_TYPE_STRING, 8);
  readstat_variable_set_label(region, "Region of residence");
  readstat_variable_t* income =
      readstat_add_variable(w, name("income").c_str(), READSTAT_TYPE_DOUBLE, 0);
  readstat_variable_set_label(income, "Yearly income");
  readstat_variable_t* seen =
      readstat_add_variable(w, name("seen").c_str(), READSTAT_TYPE_DOUBLE, 0);
  readstat_variable_set_label(seen, "Date of the last visit");
  if (spss) readstat_variable_set_format(seen, "DATE11");
  if (stata) readstat_variable_set_format(seen, "%td");
  if (sas) readstat_variable_set_format(seen, "DATE9");
  if (stata) {
    for (auto* v : {visits, health, sex, income}) readstat_variable_set_format(v, "%9.0g");
    readstat_variable_set_format(region, "%8s");
  }
  if (healthLabels) {
    readstat_variable_set_label_set(health, healthLabels);
    readstat_variable_set_label_set(sex, sexLabels);
    readstat_variable_set_label_set(income, incomeLabels);
  }
  if (spss) {
    check(readstat_variable_add_missing_double_value(visits, 99), "missing 99");
    check(readstat_variable_add_missing_double_value(health, 9), "missing 9");
  }

  FILE* f = fopen(path, "wb");
  if (!f) {
    perror(path);
    exit(1);
  }
  readstat_error_t e = READSTAT_OK;
  switch (kind) {
    case Kind::sav:
    case Kind::zsav:
      e = readstat_begin_writing_sav(w, f, kRecords);
      break;
    case Kind::por:
      e = readstat_begin_writing_por(w, f, kRecords);
      break;
    case Kind::dta:
      e = readstat_begin_writing_dta(w, f, kRecords);
      break;
    case Kind::sas7bdat:
      e = readstat_begin_writing_sas7bdat(w, f, kRecords);
      break;
    case Kind::xpt:
      e = readstat_begin_writing_xport(w, f, kRecords);
      break;
  }
  check(e, path);
  // SPSS days are seconds since 1582-10-14; Stata's %td days since 1960-01-01; SAS's days
  // since 1960-01-01 too. 2020-01-01 is day 21915 after 1960-01-01 and day 137775 + 21915 =
  // 159690 after 1582-10-14 (79 days to 1583-01-01, then 377 years with 91 leap days to 1960),
  // so all six files hold the same dates. (The constant was once 159451 days, 2019-05-07.)
  const double spssEpoch2020 = 159690.0 * 86400.0;
  for (const Record& r : survey()) {
    check(readstat_begin_row(w), "row");
    if (std::isnan(r.visits)) {
      check(readstat_insert_missing_value(w, visits), "visits");
    } else if (r.visits < 0) {
      if (spss)
        check(readstat_insert_double_value(w, visits, 99), "visits");
      else
        check(readstat_insert_tagged_missing_value(w, visits, stata ? 'a' : 'A'), "visits");
    } else {
      check(readstat_insert_double_value(w, visits, r.visits), "visits");
    }
    if (r.health == 9 && !spss) {
      check(readstat_insert_tagged_missing_value(w, health, stata ? 'a' : 'A'), "health");
    } else {
      check(readstat_insert_double_value(w, health, r.health), "health");
    }
    check(readstat_insert_double_value(w, sex, r.sex), "sex");
    check(readstat_insert_string_value(w, region, r.region), "region");
    check(readstat_insert_double_value(w, income, r.income), "income");
    const double date = spss ? spssEpoch2020 + r.seen * 86400.0 : 21915.0 + r.seen;
    check(readstat_insert_double_value(w, seen, date), "seen");
    check(readstat_end_row(w), "end row");
  }
  check(readstat_end_writing(w), "end");
  readstat_writer_free(w);
  fclose(f);
}

/// A Stata 13 file (format 117, which names no encoding) with Latin text from Windows: "José"
/// and the label "Café" in Windows-1252 bytes.
void writeLatin1Stata(const char* path) {
  readstat_writer_t* w = readstat_writer_init();
  readstat_set_data_writer(w, writeBytes);
  readstat_writer_set_file_timestamp(w, 946684800);
  readstat_writer_set_file_format_version(w, 117);
  readstat_label_set_t* place = readstat_add_label_set(w, READSTAT_TYPE_INT32, "placel");
  readstat_label_int32_value(place, 1, "Caf\xE9");
  readstat_label_int32_value(place, 2, "Bar");
  readstat_variable_t* y = readstat_add_variable(w, "y", READSTAT_TYPE_DOUBLE, 0);
  readstat_variable_set_format(y, "%9.0g");
  readstat_variable_t* name = readstat_add_variable(w, "name", READSTAT_TYPE_STRING, 8);
  readstat_variable_set_format(name, "%8s");
  readstat_variable_t* where = readstat_add_variable(w, "place", READSTAT_TYPE_DOUBLE, 0);
  readstat_variable_set_format(where, "%9.0g");
  readstat_variable_set_label_set(where, place);
  FILE* f = fopen(path, "wb");
  check(readstat_begin_writing_dta(w, f, 3), path);
  const char* names[] = {"Jos\xE9", "Ana",
                         "Ren\xE9"
                         "e"};
  for (int i = 0; i < 3; ++i) {
    check(readstat_begin_row(w), "row");
    check(readstat_insert_double_value(w, y, i + 1), "y");
    check(readstat_insert_string_value(w, name, names[i]), "name");
    check(readstat_insert_double_value(w, where, 1 + i % 2), "place");
    check(readstat_end_row(w), "end row");
  }
  check(readstat_end_writing(w), "end");
  readstat_writer_free(w);
  fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  write(Kind::sav, (dir + "/survey.sav").c_str());
  write(Kind::zsav, (dir + "/survey.zsav").c_str());
  write(Kind::por, (dir + "/survey.por").c_str());
  write(Kind::dta, (dir + "/survey.dta").c_str());
  write(Kind::sas7bdat, (dir + "/survey.sas7bdat").c_str());
  write(Kind::xpt, (dir + "/survey.xpt").c_str());
  writeLatin1Stata((dir + "/latin1_stata13.dta").c_str());
  return 0;
}
