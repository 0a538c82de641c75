// Tests of ldp_load's registry of families (src/tools/families/load_families.cpp): every
// mechanism answers to one row, every row's options and --help are whole, and every
// row's examples (a small load of each of its mechanisms) load, without a server
// (LoadFamilies) and into one (LoadFamiliesDb: the row's aggregate over the loaded table
// gives the summary its local decoding holds, bit for bit). A new family's row is
// checked here with nothing else to write.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "table_db_test.hpp"
#include "tools/common/load_family.hpp"
#include "tools/common/pg_load.hpp"

using namespace ldp::tools;
using ldp::tools::testing::TableDbTest;

namespace {

const std::string kWordFile = std::string(LDP_TEST_DATA_DIR) + "/subtlex_top1000.tsv";

// An example's arguments ({words}: the word fixture) as ldp_load reads them.
CommandLine command_line(const std::string& example) {
  std::istringstream in(example);
  std::vector<std::string> args;
  for (std::string a; in >> a;) args.push_back(a == "{words}" ? kWordFile : a);
  CommandLine cl;
  for (size_t i = 0; i < args.size(); ++i) {
    const LoadOption* option = nullptr;
    for (const LoadOption* o : all_load_options())
      if (args[i] == std::string("--") + o->name) option = o;
    if (option == nullptr) throw UsageError("not an option of ldp_load: " + args[i]);
    const bool takes_value = option->arg != LoadOption::Arg::Flag;
    if (takes_value && i + 1 == args.size()) throw UsageError(args[i] + " needs a value");
    cl.add(*option, takes_value ? args[++i].c_str() : nullptr);
  }
  return cl;
}

// The load of an example, as ldp_load makes it: its row, no option refused, prepared.
std::unique_ptr<FamilyLoad> prepare_example(const LoadFamily& row, const std::string& example) {
  const CommandLine cl = command_line(example);
  const std::string mechanism = cl.text(options::mechanism);
  EXPECT_EQ(find_load_family(mechanism), &row) << example;
  for (const CommandLine::Given& g : cl.given())
    EXPECT_EQ(refuse_option(row, *g.option, mechanism), "") << example;
  return row.prepare(cl, mechanism);
}

}  // namespace

TEST(LoadFamilies, EveryMechanismAnswersToOneRow) {
  std::set<std::string> seen;
  for (const LoadFamily* row : load_families()) {
    EXPECT_FALSE(row->mechanisms.empty()) << row->name;
    for (const std::string& m : row->mechanisms) {
      EXPECT_TRUE(seen.insert(m).second) << m << " answers to two rows";
      EXPECT_EQ(find_load_family(m), row) << m;
      EXPECT_NE(mechanism_names().find(m), std::string::npos) << m;
    }
  }
  EXPECT_EQ(find_load_family("no such mechanism"), nullptr);
}

TEST(LoadFamilies, OptionsHaveOneNameEachAndEveryRefusalSaysWhy) {
  std::set<std::string> names;
  for (const LoadOption* o : all_load_options()) EXPECT_TRUE(names.insert(o->name).second) << o->name;
  for (const LoadFamily* row : load_families())
    for (const std::string& m : row->mechanisms)
      for (const LoadOption* o : all_load_options()) {
        auto has = [](const auto& list, const auto& x) { return std::find(list.begin(), list.end(), x) != list.end(); };
        bool taken = has(options::every_load, o) || has(row->options, o);
        for (const OptionOnly& only : row->only)
          if (only.option == o) taken = taken && has(only.mechanisms, m);
        const std::string refused = refuse_option(*row, *o, m);
        EXPECT_EQ(refused.empty(), taken) << m << " --" << o->name;
        if (!taken) {
          EXPECT_NE(refused.find(std::string("--") + o->name), std::string::npos) << refused;
        }
      }
}

TEST(LoadFamilies, HelpHoldsEveryRow) {
  const std::string usage = load_usage();
  for (const LoadFamily* row : load_families()) {
    EXPECT_NE(usage.find(row->synopsis), std::string::npos) << row->name;
    EXPECT_NE(usage.find(row->mechanism_help), std::string::npos) << row->name;
    EXPECT_NE(usage.find(row->help), std::string::npos) << row->name;
  }
}

TEST(LoadFamilies, EveryMechanismHasAnExampleThatLoadsWithoutAServer) {
  for (const LoadFamily* row : load_families()) {
    std::set<std::string> covered;
    for (const std::string& example : row->examples) {
      SCOPED_TRACE(example);
      covered.insert(command_line(example).text(options::mechanism));
      std::unique_ptr<FamilyLoad> load = prepare_example(*row, example);
      std::string text;
      load->generate([&text](std::string& lines) { text += lines; }, {});
      EXPECT_EQ(static_cast<int64_t>(std::count(text.begin(), text.end(), '\n')), load->reports());
      ASSERT_TRUE(load->local_summary());
      EXPECT_EQ(load->local_summary()->rfind("v1:", 0), 0u) << *load->local_summary();
      // the mechanism's aggregate (ldp.grr_agg), or the family's when its mechanisms share one (ldp.range_agg)
      const std::string sql = load->aggregate_sql();
      EXPECT_TRUE(sql.rfind("ldp." + load->mechanism() + "_", 0) == 0 || sql.rfind("ldp." + std::string(row->name) + "_", 0) == 0)
          << sql;
    }
    EXPECT_EQ(covered, std::set<std::string>(row->mechanisms.begin(), row->mechanisms.end())) << row->name;
  }
}

namespace {
class LoadFamiliesDb : public TableDbTest {
 protected:
  LoadFamiliesDb() : TableDbTest("ldp_it_family_") {}
};
}  // namespace

TEST_F(LoadFamiliesDb, EveryExampleDecodesInSqlAsLocally) {
  if (!need_extension())
    GTEST_SKIP() << "the ldp extension is not installed on the test server: the check of the rows' aggregates "
                    "is skipped";
  for (const LoadFamily* row : load_families())
    for (const std::string& example : row->examples) {
      SCOPED_TRACE(example);
      std::unique_ptr<FamilyLoad> load = prepare_example(*row, example);
      load_into_table(*conn_, *load, table_, true);
      EXPECT_EQ(count("SELECT count(*) FROM " + table_), load->reports());
      ASSERT_TRUE(load->local_summary());
      EXPECT_EQ(one_row("SELECT " + load->aggregate_sql() + "::text FROM " + table_)[0].as<std::string>(),
                *load->local_summary());
      drop();
    }
}
